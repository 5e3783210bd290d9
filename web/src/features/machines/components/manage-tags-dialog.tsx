import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { Machine } from '../../../api/types';
import { MultiOptionInput, useServerForm } from '../../../components/form';
import { BulkDialog, type BulkAction } from '../../../components/form/form-dialog';
import { ids } from '../../../components/form/rules';
import { useMachineTagOptions } from '../../../api/filter-options';
import { useManageMachineTags } from '../api/machines';

const limits = limitsOf('ManageTagsRequest');
const schema = z.object({ add: ids(limits('add')), remove: ids(limits('remove')) });
type TagChanges = z.infer<typeof schema>;

interface Props {
  machines: Machine[];
  onClose: (changed: boolean) => void;
}

/** What the dialog says, and its look. */
const ACTION = {
  title: 'machines.manageTags',
  intro: 'machines.manageTagsText',
  submit: 'common.save',
  success: 'success.tagsUpdated',
  failure: 'errors.tagsUpdate',
  maxWidth: 'sm',
  testId: 'manage-tags',
} satisfies BulkAction;

/** Adds and removes tags on the chosen machines, all or nothing. */
export function ManageTagsDialog({ machines, onClose }: Props) {
  const { t } = useTranslation();
  const tags = useMachineTagOptions();
  const manage = useManageMachineTags();
  const form = useServerForm({ schema, defaultValues: { add: [], remove: [] } });
  const [add, remove] = useWatch<TagChanges, ['add', 'remove']>({ control: form.control, name: ['add', 'remove'] });
  const options = tags.data ?? [];

  return (
    <BulkDialog
      action={ACTION}
      count={machines.length}
      form={form}
      save={(values) => manage.mutateAsync({ machine_ids: machines.map((machine) => machine.id), ...values })}
      onClose={onClose}
      submitDisabled={add.length === 0 && remove.length === 0}
    >
      <MultiOptionInput name="add" label={t('machines.addTags')} options={options} loading={tags.isLoading} testId="manage-tags-add" />
      <MultiOptionInput name="remove" label={t('machines.removeTags')} options={options} loading={tags.isLoading} testId="manage-tags-remove" />
    </BulkDialog>
  );
}
