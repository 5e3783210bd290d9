import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import type { MachineTag } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatDate } from '../../../components/format';
import { fieldMessages } from '../../../components/server-errors';
import { ServerList } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
import { toast } from '../../../components/snackbar';
import { rules } from '../../../components/validation';
import { useCreateMachineTag, useDeleteMachineTag, useMachineTags } from '../api/machines';

/** The machine tags with how many machines carry each; create and delete. The reply holds them all. */
export function MachineTagsTable() {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const list = useListState();
  const tags = useMachineTags();
  const create = useCreateMachineTag();
  const remove = useDeleteMachineTag();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = rules.required(name) ?? rules.maxLength(name, 60);
    if (found) {
      setProblem(t(found.key, found.values));
      return;
    }
    try {
      await create.mutateAsync(name.trim());
      toast.success(t('success.tagCreated'));
      setName('');
      setProblem('');
    } catch (error) {
      setProblem(fieldMessages(error).name ?? '');
      toast.error(t('errors.tagCreate'));
    }
  };

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

  const createForm = can('settings.machines.tags_new') ? (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <TextField
        size="small"
        name="tag_name"
        label={t('machines.newTag')}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setProblem('');
        }}
        error={Boolean(problem)}
        helperText={problem || undefined}
        autoComplete="off"
        sx={{ minWidth: 260 }}
      />
      <Button type="submit" variant="contained" startIcon={<AddIcon />} loading={create.isPending} data-testid="machine-tag-submit">
        {t('machines.createTag')}
      </Button>
    </Box>
  ) : null;

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
