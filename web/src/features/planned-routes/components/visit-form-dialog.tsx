import { useMemo, useState } from 'react';
import { useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Form, FormAlerts, useServerForm } from '../../../components/form';
import { FormDialogActions } from '../../../components/form/form-dialog';
import type { PicklistLine, RouteStop } from '../../../api/types';
import { currencyDecimals } from '../../../components/money';
import { toast } from '../../../components/snackbar';
import { useFillFromRoute } from '../api/routes';
import { VisitCash, VisitLines } from '../../../components/visit/visit-lines';
import { newRequestId, toFillBody, VISIT_ALIASES, visitSchema, visitValues } from '../../../components/visit/visit-rules';

interface VisitFormDialogProps {
  routeId: string;
  stop: RouteStop;
  /** The stop's picklist lines. */
  lines: PicklistLine[];
  onClose: () => void;
}

/**
 * The refiller's form at the machine (a tablet): per selection what was found (the predicted stock
 * to start from), filled (the picklist's quantity) and removed with its reason, then the cash bag
 * and the cash collected. One `request_id` per opening makes a retry harmless.
 */
export function VisitFormDialog({ routeId, stop, lines, onClose }: VisitFormDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const tablet = useMediaQuery(theme.breakpoints.down('md'));
  const [requestId] = useState(newRequestId);
  const currency = stop.currency;
  const decimals = currencyDecimals(currency);
  const schema = useMemo(() => visitSchema(decimals), [decimals]);
  const form = useServerForm({ schema, defaultValues: visitValues(lines), aliases: VISIT_ALIASES });
  const saving = useFormState({ control: form.control }).isSubmitting;
  const fill = useFillFromRoute(routeId);

  const submit = form.submitWith(
    async (values) => {
      const booked = await fill.mutateAsync(toFillBody(values, { routeId, machineId: stop.machine_id, requestId }, decimals));
      if (booked.replayed) toast.info(t('plannedRoutes.visitForm.replayed', { machine: stop.machine_name }));
      else toast.success(t('plannedRoutes.visitForm.booked', { machine: stop.machine_name }));
      onClose();
    },
    { onError: () => toast.error(t('plannedRoutes.visitForm.failed')) },
  );

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="lg" fullScreen={tablet}>
      <Form form={form} onSubmit={submit} data-testid="visit-form" data-request-id={requestId}>
        <DialogTitle>{t('plannedRoutes.visitForm.title', { machine: stop.machine_name })}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('plannedRoutes.visitForm.intro')}
          </Typography>
          <FormAlerts stale={form.stale} testId="visit-form-error" />
          {lines.length === 0 ? <Typography variant="body2">{t('plannedRoutes.visitForm.noLines')}</Typography> : null}
          <VisitLines lines={lines} />
          <VisitCash currency={currency} />
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={onClose} submitLabel={t('plannedRoutes.visitForm.submit')} submitTestId="visit-submit" />
      </Form>
    </Dialog>
  );
}
