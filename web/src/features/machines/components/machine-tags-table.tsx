import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import type { GridColDef } from '@mui/x-data-grid';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { limitsOf } from '../../../api/limits';
import type { MachineTag } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { Form, TextInput, useServerForm } from '../../../components/form';
import { text } from '../../../components/form/rules';
import { formatDate } from '../../../components/format';
import { ServerList } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
import { toast } from '../../../components/snackbar';
import { useCreateMachineTag, useDeleteMachineTag, useMachineTags } from '../api/machines';

const tagSchema = z.object({ tag_name: text(limitsOf('TagForm')('name')) });

/** The toolbar's small form that creates a tag. */
function CreateTagForm() {
  const { t } = useTranslation();
  const create = useCreateMachineTag();
  const form = useServerForm({ schema: tagSchema, defaultValues: { tag_name: '' }, aliases: { name: 'tag_name' } });

  const submit = form.submitWith(
    async ({ tag_name }) => {
      await create.mutateAsync(tag_name.trim());
      toast.success(t('success.tagCreated'));
      form.reset();
    },
    { onError: () => toast.error(t('errors.tagCreate')) },
  );

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <TextInput size="small" name="tag_name" label={t('machines.newTag')} fullWidth={false} sx={{ minWidth: 260 }} />
      <Button type="submit" variant="contained" startIcon={<AddIcon />} loading={form.formState.isSubmitting} data-testid="machine-tag-submit">
        {t('machines.createTag')}
      </Button>
    </Form>
  );
}

/** The machine tags with how many machines carry each; create and delete. The reply holds them all. */
export function MachineTagsTable() {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const list = useListState();
  const tags = useMachineTags();
  const remove = useDeleteMachineTag();

  const columns: GridColDef<MachineTag>[] = [
    { field: 'name', headerName: t('machines.tagName'), flex: 1, minWidth: 160 },
    { field: 'machines_count', headerName: t('machines.machinesCount'), type: 'number', minWidth: 120 },
    {
      field: 'createdAt',
      headerName: t('machines.createdAt'),
      minWidth: 140,
      valueGetter: (_value, row) => formatDate(row.createdAt, i18n.language),
    },
  ];

  const createForm = can('settings.machines.tags_new') ? <CreateTagForm /> : null;

  return (
    <ServerList
      name="machine-tags"
      paging="client"
      searchable={false}
      list={list}
      query={tags}
      columns={columns}
      noRowsLabel={t('machines.noTags')}
      rowLabel={(row) => row.name}
      filters={createForm}
      deletion={
        can('settings.machines.tags_delete')
          ? {
              title: t('machines.tagDeleteTitle'),
              confirmText: ([row]) => t('machines.tagDeleteConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => remove.mutateAsync(row.id),
              pending: remove.isPending,
              successText: () => t('success.tagDeleted'),
            }
          : undefined
      }
    />
  );
}
