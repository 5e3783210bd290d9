import { useMemo, useState } from 'react';
import { useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Form, FormAlerts, SelectInput, TextInput, useServerForm } from '../../../components/form';
import { FormDialogActions } from '../../../components/form/form-dialog';
import { formatCount } from '../../../components/format';
import type { PicklistLine, RouteStop } from '../../../api/types';
import { currencyDecimals } from '../../../components/money';
import { toast } from '../../../components/snackbar';
import { useFillFromRoute } from '../api/routes';
import { REMOVED_REASONS, toFillBody, VISIT_ALIASES, visitSchema, visitValues, type VisitValues } from '../route-logic';

/** A fresh id for one opening of the form: a retry sends it again, so the server books the visit once. */
export function newRequestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

const numeric = { inputMode: 'numeric', pattern: '[0-9]*' } as const;

function LineInputs({ index, line }: { index: number; line: PicklistLine }) {
  const { t, i18n } = useTranslation();
  const removed = useWatch<VisitValues, `lines.${number}.removed`>({ name: `lines.${index}.removed` });
  const anyRemoved = /^\d+$/.test(removed ?? '') && Number(removed) > 0;
  const input = (field: 'found' | 'filled' | 'removed', label: string) => (
    <TextInput
      name={`lines.${index}.${field}`}
      label={label}
      size="small"
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { ...numeric, 'data-testid': `visit-${field}-${line.selection}` } }}
    />
  );
  return (
    <Box
      data-testid={`visit-line-${line.selection}`}
      sx={{ display: 'grid', gap: 1.5, alignItems: 'start', py: 1.5, borderBottom: 1, borderColor: 'divider', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, minmax(0, 1fr))', lg: 'minmax(0, 2fr) repeat(4, minmax(0, 1fr))' } }}
    >
      <Box sx={{ gridColumn: { xs: '1 / -1', lg: 'auto' } }}>
        <Typography variant="subtitle2">
          {line.selection} · {line.product_name}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('plannedRoutes.visitForm.lineHint', {
            max: formatCount(line.max, i18n.language),
            predicted: formatCount(line.predicted_at_visit, i18n.language),
            toBring: formatCount(line.to_bring, i18n.language),
          })}
        </Typography>
      </Box>
      {input('found', t('plannedRoutes.found'))}
      {input('filled', t('plannedRoutes.filled'))}
      {input('removed', t('plannedRoutes.removed'))}
      <SelectInput name={`lines.${index}.removed_reason`} label={t('plannedRoutes.visitForm.reason')} size="small" disabled={!anyRemoved} testId={`visit-reason-${line.selection}`}>
        <MenuItem value="">{t('plannedRoutes.visitForm.noReason')}</MenuItem>
        {REMOVED_REASONS.map((reason) => (
          <MenuItem key={reason} value={reason}>
            {t(`plannedRoutes.reasons.${reason}`)}
          </MenuItem>
        ))}
      </SelectInput>
    </Box>
  );
}

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
          <Box>
            {lines.map((line, index) => (
              <LineInputs key={line.selection} index={index} line={line} />
            ))}
          </Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextInput name="cash_bag" label={t('plannedRoutes.cashBag')} slotProps={{ htmlInput: { 'data-testid': 'visit-cash-bag' } }} />
            <TextInput
              name="collected"
              label={t('plannedRoutes.visitForm.collected', { currency })}
              helperText={t('plannedRoutes.visitForm.collectedHint')}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'visit-collected' } }}
            />
          </Box>
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={onClose} submitLabel={t('plannedRoutes.visitForm.submit')} submitTestId="visit-submit" />
      </Form>
    </Dialog>
  );
}
