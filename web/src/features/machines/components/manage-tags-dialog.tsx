import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { isApiError } from '../../../api/client';
import type { Machine, Option } from '../../../api/types';
import { fieldMessages } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import { useMachineTagOptions } from '../api/filters';
import { useManageMachineTags } from '../api/machines';

interface Props {
  machines: Machine[];
  onClose: (changed: boolean) => void;
}

/** Adds and removes tags on the chosen machines, all or nothing. */
export function ManageTagsDialog({ machines, onClose }: Props) {
  const { t } = useTranslation();
  const tags = useMachineTagOptions();
  const manage = useManageMachineTags();
  const [add, setAdd] = useState<Option[]>([]);
  const [remove, setRemove] = useState<Option[]>([]);
  const [problem, setProblem] = useState('');
  const options = tags.data ?? [];

  const submit = async () => {
    setProblem('');
    try {
      await manage.mutateAsync({
        machine_ids: machines.map((machine) => machine.id),
        add: add.map((tag) => tag.id),
        remove: remove.map((tag) => tag.id),
      });
      toast.success(t('success.tagsUpdated'));
      onClose(true);
    } catch (error) {
      const fields = fieldMessages(error);
      setProblem(Object.values(fields)[0] || (isApiError(error) ? error.message : ''));
      toast.error(t('errors.tagsUpdate'));
    }
  };

  const picker = (label: string, value: Option[], onChange: (next: Option[]) => void, testId: string) => (
    <Autocomplete
      multiple
      options={options}
      value={value}
      loading={tags.isLoading}
      noOptionsText={t('users.noOptions')}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      onChange={(_event, next) => onChange(next)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
        />
      )}
    />
  );

  return (
    <Dialog open onClose={manage.isPending ? undefined : () => onClose(false)} fullWidth maxWidth="sm">
      <DialogTitle>{t('machines.manageTags')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }} data-testid="manage-tags-dialog">
        <DialogContentText>{t('machines.manageTagsText', { count: machines.length })}</DialogContentText>
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        {picker(t('machines.addTags'), add, setAdd, 'manage-tags-add')}
        {picker(t('machines.removeTags'), remove, setRemove, 'manage-tags-remove')}
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={() => onClose(false)} disabled={manage.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          loading={manage.isPending}
          disabled={add.length === 0 && remove.length === 0}
          onClick={() => void submit()}
          data-testid="manage-tags-submit"
        >
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
