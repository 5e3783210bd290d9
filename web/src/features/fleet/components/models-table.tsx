import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { MachineModel } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate } from '../../../components/format';
import { useGridLocaleText } from '../../../components/grid-locale';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { paths } from '../../../routes/paths';
import { useManufacturers, useModelTypes } from '../api/filters';
import { useDeleteModel, useModels } from '../api/models';
import { deletionFailure, FilterSelect, SearchField } from '../../../components/fields';
import { orderingOf, PAGE_SIZES } from '../../../components/grid';

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', type: 'model_type', manufacturer: 'manufacturer', createdAt: 'created_at' };

export function ModelsTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const [manufacturer, setManufacturer] = useState('');
  const [confirm, setConfirm] = useState<MachineModel | null>(null);
  const debouncedSearch = useDebouncedValue(search.trim());

  const models = useModels({
    page: pagination.page + 1,
    page_size: pagination.pageSize,
    search: debouncedSearch,
    ordering: orderingOf(sortModel, SORTABLE),
    type,
    manufacturer,
  });
  const types = useModelTypes();
  const manufacturers = useManufacturers();
  const deleteModel = useDeleteModel();
  const rows = useMemo(() => models.data?.data ?? [], [models.data]);
  const canEdit = can('settings.models.edit');
  const canDelete = can('settings.models.delete');

  const filterBy = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    setPagination((previous) => ({ ...previous, page: 0 }));
  };

  const confirmDelete = async () => {
    if (!confirm) return;
    try {
      await deleteModel.mutateAsync(confirm.id);
      toast.success(t('success.modelDeleted'));
    } catch (error) {
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setConfirm(null);
    }
  };

  const columns: GridColDef<MachineModel>[] = [
    { field: 'name', headerName: t('models.name'), flex: 1, minWidth: 200 },
    { field: 'type', headerName: t('models.type'), flex: 1, minWidth: 140 },
    { field: 'manufacturer', headerName: t('models.manufacturer'), flex: 1, minWidth: 160 },
    {
      field: 'createdAt',
      headerName: t('models.createdAt'),
      minWidth: 130,
      valueFormatter: (value: string) => formatDate(value, i18n.language),
    },
    {
      field: 'actions',
      headerName: t('common.actions'),
      sortable: false,
      disableColumnMenu: true,
      align: 'right',
      headerAlign: 'right',
      minWidth: 110,
      renderCell: ({ row }) => (
        <>
          {canEdit ? (
            <Tooltip title={t('common.edit')}>
              <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => navigate(paths.settings.editModel(row.id))}>
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
          {canDelete ? (
            <Tooltip title={t('common.delete')}>
              <IconButton aria-label={`${t('common.delete')}: ${row.name}`} color="error" onClick={() => setConfirm(row)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <Card>
      <Box sx={{ p: 2.5, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <FilterSelect
          label={t('models.type')}
          allLabel={t('models.allTypes')}
          value={type}
          options={types.data ?? []}
          onChange={filterBy(setType)}
          testId="models-type-filter"
        />
        <FilterSelect
          label={t('models.manufacturer')}
          allLabel={t('models.allManufacturers')}
          value={manufacturer}
          options={manufacturers.data ?? []}
          onChange={filterBy(setManufacturer)}
          testId="models-manufacturer-filter"
        />
        <SearchField value={search} testId="models-search" onChange={filterBy(setSearch)} />
      </Box>
      <Box data-testid="models-grid">
        <DataGrid
          rows={rows}
          columns={columns}
          rowCount={models.data?.pagination.count ?? 0}
          loading={models.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={PAGE_SIZES}
          sortModel={sortModel}
          onSortModelChange={(model) => {
            setSortModel(model);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
          disableRowSelectionOnClick
          localeText={{ ...localeText, noRowsLabel: t('models.noRows') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
        />
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t('models.deleteTitle')}
        content={t('models.deleteConfirm', { name: confirm?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={deleteModel.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirm(null)}
      />
    </Card>
  );
}
