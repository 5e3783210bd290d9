import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { limitsOf } from '../../../api/limits';
import type { Machine } from '../../../api/types';
import { Form, FormAlerts, OptionInput, useServerForm } from '../../../components/form';
import { text } from '../../../components/form/rules';
import { toast } from '../../../components/snackbar';
import { useMachineOptions } from '../api/filters';
import { useCopyProducts } from '../api/machines';

const limits = limitsOf('CopyProductsRequest');
const schema = z.object({ from_machine_id: text(limits('from_machine_id')) });
type CopyValues = z.infer<typeof schema>;

interface Props {
  /** The machines that receive the planogram. */
  targets: Machine[];
  onClose: (changed: boolean) => void;
}

/** Copies one machine's product selections onto the chosen machines, all or nothing. */
export function CopyProductsDialog({ targets, onClose }: Props) {
  const { t } = useTranslation();
  const machines = useMachineOptions();
  const copy = useCopyProducts();
  const form = useServerForm({ schema, defaultValues: { from_machine_id: '' } });
  const source = useWatch<CopyValues, 'from_machine_id'>({ control: form.control, name: 'from_machine_id' });
  const receivers = targets.filter((machine) => machine.id !== source);
  const saving = form.formState.isSubmitting;

  const submit = form.submitWith(
    async ({ from_machine_id }) => {
      await copy.mutateAsync({ from_machine_id, to_machine_ids: receivers.map((machine) => machine.id) });
      toast.success(t('success.productsCopied'));
      onClose(true);
    },
    { onError: () => toast.error(t('errors.copyProducts')) },
  );

  return (
    <Dialog open onClose={saving ? undefined : () => onClose(false)} fullWidth maxWidth="sm">
      <Form form={form} onSubmit={submit}>
        <DialogTitle>{t('machines.copyProducts')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }} data-testid="copy-products-dialog">
          <DialogContentText>{t('machines.copyProductsText', { count: receivers.length })}</DialogContentText>
          <FormAlerts />
          <OptionInput
            name="from_machine_id"
            label={t('machines.sourceMachine')}
            options={machines.data ?? []}
            loading={machines.isLoading}
            noneLabel={t('machines.chooseMachine')}
            testId="copy-products-source"
          />
        </DialogContent>
        <DialogActions>
          <Button variant="outlined" color="inherit" onClick={() => onClose(false)} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            loading={saving}
            disabled={!source || receivers.length === 0}
            data-testid="copy-products-submit"
          >
            {t('machines.copyProducts')}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
