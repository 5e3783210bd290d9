import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import EditIcon from '@mui/icons-material/EditOutlined';
import RecipeIcon from '@mui/icons-material/ReceiptLongOutlined';
import type { Product } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatMoney } from '../../../components/money';
import { formatPercent } from '../../../components/percent';
import { reportColumns } from '../../../components/reports/report-columns';
import { StatusChip, TagChips } from '../../../components/server-list/cells';
import { ServerList, type RowAction } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { useProductTagOptions } from '../../../api/filter-options';
import { exportProducts, useDeleteProduct, useProducts } from '../api/products';

const SORTABLE = { name: 'name', price_minor: 'price_minor', vat_bps: 'vat_bps' };
const FILTERS = ['tag', 'inactive'] as const;

interface Props {
  composite: boolean;
  onEdit: (product: Product) => void;
  onRecipe?: (product: Product) => void;
}

/** Products or composite products: search, tag and status filters, server paging. */
export function ProductsTable({ composite, onEdit, onRecipe }: Props) {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const area = composite ? 'settings.composite_products' : 'settings.products';
  const list = useListState(FILTERS);
  const products = useProducts(composite, { ...list.params, ...list.filters });
  const tags = useProductTagOptions();
  const remove = useDeleteProduct(composite);
  const canEdit = can(`${area}.edit`);

  const columns: GridColDef<Product>[] = [
    { field: 'name', headerName: t('products.name'), flex: 1, minWidth: 140 },
    {
      field: 'price_minor',
      headerName: t('products.price'),
      minWidth: 100,
      align: 'right',
      headerAlign: 'right',
      valueGetter: (_value, row) => formatMoney(row.price_minor, row.currency, i18n.language),
    },
    {
      field: 'vat_bps',
      headerName: t('products.vat'),
      minWidth: 80,
      align: 'right',
      headerAlign: 'right',
      valueGetter: (_value, row) => formatPercent(row.vat_bps, i18n.language),
    },
    { field: 'units', headerName: t('products.units'), minWidth: 80 },
    composite
      ? {
          field: 'recipe',
          headerName: t('products.recipe'),
          minWidth: 150,
          flex: 1,
          valueGetter: (_value, row) => row.recipe.map((line) => `${line.component_name} ${line.quantity} ${line.unit}`.trim()).join(', '),
        }
      : // No maximum (null: no limit) shows as "—", never as an empty cell.
        reportColumns<Product>(i18n.language).count('max_quantity', t('products.maxQuantity'), { minWidth: 110 }),
    {
      field: 'tags',
      headerName: t('products.tags'),
      minWidth: 130,
      flex: 0.6,
      renderCell: ({ row }) => <TagChips tags={row.tags} />,
    },
    {
      field: 'inactive',
      headerName: t('common.status'),
      minWidth: 90,
      renderCell: ({ row }) => <StatusChip inactive={row.inactive} />,
    },
  ];

  const actions: RowAction<Product>[] = [];
  if (composite && onRecipe && canEdit) actions.push({ label: t('products.editRecipe'), icon: <RecipeIcon fontSize="small" />, onClick: onRecipe });
  if (canEdit) actions.push({ label: t('common.edit'), icon: <EditIcon fontSize="small" />, onClick: onEdit });

  const statuses = [
    { id: 'false', name: t('common.active') },
    { id: 'true', name: t('common.inactive') },
  ];

  return (
    <ServerList
      name={composite ? 'composites' : 'products'}
      list={list}
      query={products}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={composite ? t('products.noComposites') : t('products.noRows')}
      rowLabel={(row) => row.name}
      autoRowHeight
      filters={
        <>
          <ListFilter list={list} filter="tag" label={t('products.tags')} allLabel={t('products.allTags')} options={tags.data ?? []} testId={`${composite ? 'composites' : 'products'}-tag-filter`} />
          <ListFilter list={list} filter="inactive" label={t('common.status')} allLabel={t('products.allStatuses')} options={statuses} testId={`${composite ? 'composites' : 'products'}-status-filter`} />
        </>
      }
      onExport={can('settings.products.list') ? (format) => exportProducts(format, composite, list.exportParams) : undefined}
      actions={actions}
      deletion={
        can(`${area}.delete`)
          ? {
              title: t('products.deleteTitle'),
              confirmText: ([row]) => t('products.deleteConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => remove.mutateAsync(row.id),
              pending: remove.isPending,
              successText: () => t('success.productDeleted'),
            }
          : undefined
      }
    />
  );
}
