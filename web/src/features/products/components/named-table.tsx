import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { Component, ProductTag } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatDate } from '../../../components/format';
import { StatusChip } from '../../../components/server-list/cells';
import { ServerList, type ListQuery } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
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
  const list = useListState();
  const components = useComponents(list.params, kind === 'components');
  const tags = useProductTags(list.params, kind === 'tags');
  const query = kind === 'components' ? components : tags;
  const deleteComponent = useDeleteComponent();
  const deleteTag = useDeleteProductTag();
  const remove = kind === 'components' ? deleteComponent : deleteTag;
  const area = kind === 'components' ? 'settings.components' : 'settings.product_tags';

  const columns: GridColDef<Row>[] = [
    { field: 'name', headerName: kind === 'components' ? t('products.name') : t('products.tagName'), flex: 1, minWidth: 180 },
    ...(kind === 'components'
      ? ([
          { field: 'unit', headerName: t('products.unit'), minWidth: 100 },
          {
            field: 'inactive',
            headerName: t('common.status'),
            minWidth: 100,
            renderCell: ({ row }) => <StatusChip inactive={(row as Component).inactive} />,
          },
        ] as GridColDef<Row>[])
      : []),
    { field: 'createdAt', headerName: t('products.createdAt'), minWidth: 130, valueGetter: (_value, row) => formatDate(row.createdAt, i18n.language) },
  ];

  return (
    <ServerList<Row, never>
      name={kind}
      list={list}
      query={query as ListQuery<Row>}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={kind === 'components' ? t('products.noComponents') : t('products.noTags')}
      rowLabel={(row) => row.name}
      actions={can(`${area}.edit`) ? [{ label: t('common.edit'), icon: <EditIcon fontSize="small" />, onClick: (row) => onEdit(row as R) }] : []}
      deletion={
        can(`${area}.delete`)
          ? {
              title: kind === 'components' ? t('products.componentDeleteTitle') : t('products.tagDeleteTitle'),
              confirmText: ([row]) =>
                kind === 'components'
                  ? t('products.componentDeleteConfirm', { name: row?.name ?? '' })
                  : t('products.tagDeleteConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => remove.mutateAsync(row.id),
              pending: remove.isPending,
              successText: () => (kind === 'components' ? t('success.componentDeleted') : t('success.tagDeleted')),
            }
          : undefined
      }
    />
  );
}
