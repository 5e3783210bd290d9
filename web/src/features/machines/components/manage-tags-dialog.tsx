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
import { Form, FormAlerts, MultiOptionInput, useServerForm } from '../../../components/form';
import { ids } from '../../../components/form/rules';
import { toast } from '../../../components/snackbar';
import { useMachineTagOptions } from '../api/filters';
import { useManageMachineTags } from '../api/machines';

const limits = limitsOf('ManageTagsRequest');
const schema = z.object({ add: ids(limits('add')), remove: ids(limits('remove')) });
type TagChanges = z.infer<typeof schema>;

interface Props {
  machines: Machine[];
  onClose: (changed: boolean) => void;
}

/** Adds and removes tags on the chosen machines, all or nothing. */
export function ManageTagsDialog({ machines, onClose }: Props) {
  const { t } = useTranslation();
  const tags = useMachineTagOptions();
  const manage = useManageMachineTags();
  const form = useServerForm({ schema, defaultValues: { add: [], remove: [] } });
  const [add, remove] = useWatch<TagChanges, ['add', 'remove']>({ control: form.control, name: ['add', 'remove'] });
  const saving = form.formState.isSubmitting;
  const options = tags.data ?? [];

  const submit = form.submitWith(
    async (values) => {
      await manage.mutateAsync({ machine_ids: machines.map((machine) => machine.id), ...values });
      toast.success(t('success.tagsUpdated'));
      onClose(true);
    },
    { onError: () => toast.error(t('errors.tagsUpdate')) },
  );

  return (
    <Dialog open onClose={saving ? undefined : () => onClose(false)} fullWidth maxWidth="sm">
      <Form form={form} onSubmit={submit}>
        <DialogTitle>{t('machines.manageTags')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }} data-testid="manage-tags-dialog">
          <DialogContentText>{t('machines.manageTagsText', { count: machines.length })}</DialogContentText>
          <FormAlerts />
          <MultiOptionInput name="add" label={t('machines.addTags')} options={options} loading={tags.isLoading} testId="manage-tags-add" />
          <MultiOptionInput name="remove" label={t('machines.removeTags')} options={options} loading={tags.isLoading} testId="manage-tags-remove" />
        </DialogContent>
        <DialogActions>
          <Button variant="outlined" color="inherit" onClick={() => onClose(false)} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            loading={saving}
            disabled={add.length === 0 && remove.length === 0}
            data-testid="manage-tags-submit"
          >
            {t('common.save')}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
