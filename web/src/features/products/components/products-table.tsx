import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import RecipeIcon from '@mui/icons-material/ReceiptLongOutlined';
import type { Product } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { deletionFailure, FilterSelect, SearchField } from '../../../components/fields';
import { orderingOf, PAGE_SIZES } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { formatMoney } from '../../../components/money';
import { formatPercent } from '../../../components/percent';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { exportProducts, useDeleteProduct, useProducts, useProductTagOptions } from '../api/products';

const SORTABLE = { name: 'name', price_minor: 'price_minor', vat_bps: 'vat_bps' };

interface Props {
  composite: boolean;
  onEdit: (product: Product) => void;
  onRecipe?: (product: Product) => void;
}

/** Products or composite products: search, tag and status filters, server paging. */
export function ProductsTable({ composite, onEdit, onRecipe }: Props) {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const area = composite ? 'settings.composite_products' : 'settings.products';
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [inactive, setInactive] = useState('');
  const [confirm, setConfirm] = useState<Product | null>(null);
  const [exportAnchor, setExportAnchor] = useState<HTMLElement | null>(null);
  const [exporting, setExporting] = useState(false);
  const debouncedSearch = useDebouncedValue(search.trim());
  const products = useProducts(composite, {
    page: pagination.page + 1,
    page_size: pagination.pageSize,
    search: debouncedSearch,
    ordering: orderingOf(sortModel, SORTABLE),
    tag,
    inactive,
  });
  const tags = useProductTagOptions();
  const remove = useDeleteProduct(composite);
  const rows = useMemo(() => products.data?.data ?? [], [products.data]);
  const canEdit = can(`${area}.edit`);
  const canDelete = can(`${area}.delete`);

  const runExport = async (format: 'csv' | 'xlsx') => {
    setExportAnchor(null);
    setExporting(true);
    try {
      await exportProducts(format, composite, { search: debouncedSearch, ordering: orderingOf(sortModel, SORTABLE), tag, inactive });
    } catch {
      toast.error(t('errors.unexpected'));
    } finally {
      setExporting(false);
    }
  };

  const filterBy = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    setPagination((previous) => ({ ...previous, page: 0 }));
  };

  const confirmDelete = async () => {
    if (!confirm) return;
    try {
      await remove.mutateAsync(confirm.id);
      toast.success(t('success.productDeleted'));
    } catch (error) {
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setConfirm(null);
    }
  };

  const columns: GridColDef<Product>[] = [
    { field: 'name', headerName: t('products.name'), flex: 1, minWidth: 180 },
    {
      field: 'price_minor',
      headerName: t('products.price'),
      minWidth: 110,
      align: 'right',
      headerAlign: 'right',
      valueGetter: (_value, row) => formatMoney(row.price_minor, row.currency, i18n.language),
    },
    {
      field: 'vat_bps',
      headerName: t('products.vat'),
      minWidth: 90,
      align: 'right',
      headerAlign: 'right',
      valueGetter: (_value, row) => formatPercent(row.vat_bps, i18n.language),
    },
    { field: 'units', headerName: t('products.units'), minWidth: 80, sortable: false },
    composite
      ? {
          field: 'recipe',
          headerName: t('products.recipe'),
          minWidth: 200,
          flex: 1,
          sortable: false,
          valueGetter: (_value, row) => row.recipe.map((line) => `${line.component_name} ${line.quantity} ${line.unit}`.trim()).join(', '),
        }
      : { field: 'max_quantity', headerName: t('products.maxQuantity'), minWidth: 110, type: 'number', sortable: false },
    {
      field: 'tags',
      headerName: t('products.tags'),
      minWidth: 150,
      flex: 0.6,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, py: 1 }}>
          {row.tags.map((item) => (
            <Chip key={item.id} label={item.name} size="small" variant="outlined" />
          ))}
        </Box>
      ),
    },
    {
      field: 'inactive',
      headerName: t('common.status'),
      minWidth: 100,
      sortable: false,
      renderCell: ({ row }) => (
        <Chip size="small" variant="outlined" color={row.inactive ? 'default' : 'success'} label={row.inactive ? t('common.inactive') : t('common.active')} />
      ),
    },
    {
      field: 'actions',
      headerName: t('common.actions'),
      sortable: false,
      disableColumnMenu: true,
      align: 'right',
      headerAlign: 'right',
      minWidth: 140,
      renderCell: ({ row }) => (
        <>
          {composite && onRecipe && canEdit ? (
            <Tooltip title={t('products.editRecipe')}>
              <IconButton aria-label={`${t('products.editRecipe')}: ${row.name}`} onClick={() => onRecipe(row)}>
                <RecipeIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
          {canEdit ? (
            <Tooltip title={t('common.edit')}>
              <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => onEdit(row)}>
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

  const prefix = composite ? 'composites' : 'products';
  return (
    <Card>
      <Box sx={{ p: 2.5, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <FilterSelect
          label={t('products.tags')}
          allLabel={t('products.allTags')}
          value={tag}
          options={tags.data ?? []}
          onChange={filterBy(setTag)}
          testId={`${prefix}-tag-filter`}
        />
        <FilterSelect
          label={t('common.status')}
          allLabel={t('products.allStatuses')}
          value={inactive}
          options={[
            { id: 'false', name: t('common.active') },
            { id: 'true', name: t('common.inactive') },
          ]}
          onChange={filterBy(setInactive)}
          testId={`${prefix}-status-filter`}
        />
        <SearchField value={search} testId={`${prefix}-search`} onChange={filterBy(setSearch)} />
        {can('settings.products.list') ? (
          <>
            <Button
              color="inherit"
              variant="outlined"
              startIcon={<DownloadIcon />}
              loading={exporting}
              onClick={(event) => setExportAnchor(event.currentTarget)}
              data-testid={`${prefix}-export`}
            >
              {t('common.export')}
            </Button>
            <Menu anchorEl={exportAnchor} open={Boolean(exportAnchor)} onClose={() => setExportAnchor(null)}>
              <MenuItem onClick={() => void runExport('csv')}>{t('common.exportCsv')}</MenuItem>
              <MenuItem onClick={() => void runExport('xlsx')}>{t('common.exportXlsx')}</MenuItem>
            </Menu>
          </>
        ) : null}
      </Box>
      <Box data-testid={`${prefix}-grid`}>
        <DataGrid
          rows={rows}
          columns={columns}
          rowCount={products.data?.pagination.count ?? 0}
          loading={products.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={PAGE_SIZES}
          sortModel={sortModel}
          onSortModelChange={(next) => {
            setSortModel(next);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
          disableRowSelectionOnClick
          getRowHeight={() => 'auto'}
          localeText={{ ...localeText, noRowsLabel: composite ? t('products.noComposites') : t('products.noRows') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
        />
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t('products.deleteTitle')}
        content={t('products.deleteConfirm', { name: confirm?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirm(null)}
      />
    </Card>
  );
}
