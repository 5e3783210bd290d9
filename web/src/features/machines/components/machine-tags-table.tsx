import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { MachineTag } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { deletionFailure } from '../../../components/fields';
import { formatDate } from '../../../components/format';
import { PAGE_SIZES } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { fieldMessages } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import { rules } from '../../../components/validation';
import { useCreateMachineTag, useDeleteMachineTag, useMachineTags } from '../api/machines';

/** The machine tags with how many machines carry each; create and delete. */
export function MachineTagsTable() {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const tags = useMachineTags();
  const create = useCreateMachineTag();
  const remove = useDeleteMachineTag();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState('');
  const [confirm, setConfirm] = useState<MachineTag | null>(null);
  const rows = useMemo(() => tags.data?.data ?? [], [tags.data]);
  const canDelete = can('settings.machines.tags_delete');

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

  const confirmDelete = async () => {
    if (!confirm) return;
    try {
      await remove.mutateAsync(confirm.id);
      toast.success(t('success.tagDeleted'));
    } catch (error) {
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setConfirm(null);
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
    {
      field: 'actions',
      headerName: t('common.actions'),
      sortable: false,
      disableColumnMenu: true,
      align: 'right',
      headerAlign: 'right',
      minWidth: 90,
      renderCell: ({ row }) =>
        canDelete ? (
          <Tooltip title={t('common.delete')}>
            <IconButton aria-label={`${t('common.delete')}: ${row.name}`} color="error" onClick={() => setConfirm(row)}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <Card>
      {can('settings.machines.tags_new') ? (
        <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ p: 2.5, display: 'flex', gap: 2, alignItems: 'flex-start' }}>
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
      ) : null}
      <Box data-testid="machine-tags-grid">
        <DataGrid
          rows={rows}
          columns={columns}
          loading={tags.isFetching}
          pageSizeOptions={PAGE_SIZES}
          initialState={{ pagination: { paginationModel: { pageSize: 25 } } }}
          disableRowSelectionOnClick
          localeText={{ ...localeText, noRowsLabel: t('machines.noTags') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px' }}
        />
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t('machines.tagDeleteTitle')}
        content={t('machines.tagDeleteConfirm', { name: confirm?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirm(null)}
      />
    </Card>
  );
}
