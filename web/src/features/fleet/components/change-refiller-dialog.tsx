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
import { fieldMessages } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import { useEmployeeOptions } from '../api/filters';
import { useChangeRefiller } from '../api/locations';
import { OptionPicker } from '../../../components/fields';

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
  const [refiller, setRefiller] = useState(current ?? '');
  const [problem, setProblem] = useState('');

  const submit = async () => {
    setProblem('');
    try {
      await change.mutateAsync({ locationIds, refillerId: refiller || null });
      toast.success(t('success.refillerChanged'));
      onClose(true);
    } catch (error) {
      const fields = fieldMessages(error);
      setProblem(fields.refiller_id || fields.location_ids || (isApiError(error) ? error.message : ''));
      toast.error(t('errors.refillerChange'));
    }
  };

  return (
    <Dialog open onClose={change.isPending ? undefined : () => onClose(false)} fullWidth maxWidth="xs">
      <DialogTitle>{t('locations.changeRefiller')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="change-refiller-dialog">
        <DialogContentText>{t('locations.changeRefillerText', { count: locationIds.length })}</DialogContentText>
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        <OptionPicker
          name="refiller_id"
          label={t('locations.refiller')}
          value={refiller}
          options={employees.data ?? []}
          loading={employees.isLoading}
          noneLabel={t('locations.noRefiller')}
          onChange={setRefiller}
          testId="change-refiller-picker"
        />
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={() => onClose(false)} disabled={change.isPending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" loading={change.isPending} onClick={() => void submit()} data-testid="change-refiller-submit">
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
