import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { Component, ProductTag } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { deletionFailure, SearchField } from '../../../components/fields';
import { formatDate } from '../../../components/format';
import { orderingOf, PAGE_SIZES } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { useComponents, useDeleteComponent, useDeleteProductTag, useProductTags } from '../api/products';

const SORTABLE = { name: 'name', createdAt: 'created_at' };

type Row = Component | ProductTag;

interface Props<R extends Row> {
  kind: 'components' | 'tags';
  onEdit: (row: R) => void;
}

/** Components or product tags: search, sort by name or date, edit and delete. */
export function NamedTable<R extends Row>({ kind, onEdit }: Props<R>) {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [confirm, setConfirm] = useState<Row | null>(null);
  const debouncedSearch = useDebouncedValue(search.trim());
  const params = { page: pagination.page + 1, page_size: pagination.pageSize, search: debouncedSearch, ordering: orderingOf(sortModel, SORTABLE) };
  const components = useComponents(params, kind === 'components');
  const tags = useProductTags(params, kind === 'tags');
  const list = kind === 'components' ? components : tags;
  const deleteComponent = useDeleteComponent();
  const deleteTag = useDeleteProductTag();
  const remove = kind === 'components' ? deleteComponent : deleteTag;
  const rows = useMemo(() => (list.data?.data ?? []) as Row[], [list.data]);
  const area = kind === 'components' ? 'settings.components' : 'settings.product_tags';
  const canEdit = can(`${area}.edit`);
  const canDelete = can(`${area}.delete`);

  const confirmDelete = async () => {
    if (!confirm) return;
    try {
      await remove.mutateAsync(confirm.id);
      toast.success(kind === 'components' ? t('success.componentDeleted') : t('success.tagDeleted'));
    } catch (error) {
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setConfirm(null);
    }
  };

  const columns: GridColDef<Row>[] = [
    { field: 'name', headerName: kind === 'components' ? t('products.name') : t('products.tagName'), flex: 1, minWidth: 180 },
    ...(kind === 'components'
      ? ([
          { field: 'unit', headerName: t('products.unit'), minWidth: 100, sortable: false },
          {
            field: 'inactive',
            headerName: t('common.status'),
            minWidth: 100,
            sortable: false,
            renderCell: ({ row }) => {
              const off = (row as Component).inactive;
              return <Chip size="small" variant="outlined" color={off ? 'default' : 'success'} label={off ? t('common.inactive') : t('common.active')} />;
            },
          },
        ] as GridColDef<Row>[])
      : []),
    { field: 'createdAt', headerName: t('products.createdAt'), minWidth: 130, valueGetter: (_value, row) => formatDate(row.createdAt, i18n.language) },
    {
      field: 'actions',
      headerName: t('common.actions'),
      sortable: false,
      disableColumnMenu: true,
      align: 'right',
      headerAlign: 'right',
      minWidth: 100,
      renderCell: ({ row }) => (
        <>
          {canEdit ? (
            <Tooltip title={t('common.edit')}>
              <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => onEdit(row as R)}>
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
      <Box sx={{ p: 2.5, display: 'flex', gap: 2 }}>
        <SearchField
          value={search}
          testId={`${kind}-search`}
          onChange={(value) => {
            setSearch(value);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
        />
      </Box>
      <Box data-testid={`${kind}-grid`}>
        <DataGrid
          rows={rows}
          columns={columns}
          rowCount={list.data?.pagination.count ?? 0}
          loading={list.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={PAGE_SIZES}
          sortModel={sortModel}
          onSortModelChange={setSortModel}
          disableRowSelectionOnClick
          localeText={{ ...localeText, noRowsLabel: kind === 'components' ? t('products.noComponents') : t('products.noTags') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
        />
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        title={kind === 'components' ? t('products.componentDeleteTitle') : t('products.tagDeleteTitle')}
        content={
          kind === 'components'
            ? t('products.componentDeleteConfirm', { name: confirm?.name ?? '' })
            : t('products.tagDeleteConfirm', { name: confirm?.name ?? '' })
        }
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirm(null)}
      />
    </Card>
  );
}
