import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { isApiError } from '../../../api/client';
import type { Machine } from '../../../api/types';
import { OptionPicker } from '../../../components/fields';
import { fieldMessages } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import { useMachineOptions } from '../api/filters';
import { useCopyProducts } from '../api/machines';

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
  const [source, setSource] = useState('');
  const [problem, setProblem] = useState('');
  const receivers = targets.filter((machine) => machine.id !== source);

  const submit = async () => {
    setProblem('');
    try {
      await copy.mutateAsync({ from_machine_id: source, to_machine_ids: receivers.map((machine) => machine.id) });
      toast.success(t('success.productsCopied'));
      onClose(true);
    } catch (error) {
      const fields = fieldMessages(error);
      setProblem(Object.values(fields)[0] || (isApiError(error) ? error.message : ''));
      toast.error(t('errors.copyProducts'));
    }
  };

  return (
    <Dialog open onClose={copy.isPending ? undefined : () => onClose(false)} fullWidth maxWidth="sm">
      <DialogTitle>{t('machines.copyProducts')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }} data-testid="copy-products-dialog">
        <DialogContentText>{t('machines.copyProductsText', { count: receivers.length })}</DialogContentText>
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        <OptionPicker
          name="from_machine_id"
          label={t('machines.sourceMachine')}
          value={source}
          options={machines.data ?? []}
          loading={machines.isLoading}
          noneLabel={t('machines.chooseMachine')}
          onChange={setSource}
          testId="copy-products-source"
        />
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={() => onClose(false)} disabled={copy.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          loading={copy.isPending}
          disabled={!source || receivers.length === 0}
          onClick={() => void submit()}
          data-testid="copy-products-submit"
        >
          {t('machines.copyProducts')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
