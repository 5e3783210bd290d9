import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { Form, FormAlerts, OptionInput, useServerForm } from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { useEmployeeOptions } from '../api/filters';
import { useChangeRefiller } from '../api/locations';

/** The new refiller; '' = none. */
const schema = z.object({ refiller_id: z.string() });

interface Props {
  locationIds: string[];
  /** The refiller they share, if any: the starting choice. */
  current?: string;
  onClose: (changed: boolean) => void;
}

/** Gives the chosen locations a new refiller (or none), all or nothing. */
export function ChangeRefillerDialog({ locationIds, current, onClose }: Props) {
  const { t } = useTranslation();
  const employees = useEmployeeOptions();
  const change = useChangeRefiller();
  const form = useServerForm({ schema, defaultValues: { refiller_id: current ?? '' } });
  const saving = form.formState.isSubmitting;

  const submit = form.submitWith(
    async ({ refiller_id }) => {
      await change.mutateAsync({ locationIds, refillerId: refiller_id || null });
      toast.success(t('success.refillerChanged'));
      onClose(true);
    },
    { onError: () => toast.error(t('errors.refillerChange')) },
  );

  return (
    <Dialog open onClose={saving ? undefined : () => onClose(false)} fullWidth maxWidth="xs">
      <Form form={form} onSubmit={submit}>
        <DialogTitle>{t('locations.changeRefiller')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="change-refiller-dialog">
          <DialogContentText>{t('locations.changeRefillerText', { count: locationIds.length })}</DialogContentText>
          <FormAlerts />
          <OptionInput
            name="refiller_id"
            label={t('locations.refiller')}
            options={employees.data ?? []}
            loading={employees.isLoading}
            noneLabel={t('locations.noRefiller')}
            testId="change-refiller-picker"
          />
        </DialogContent>
        <DialogActions>
          <Button variant="outlined" color="inherit" onClick={() => onClose(false)} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={saving} data-testid="change-refiller-submit">
            {t('common.save')}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
