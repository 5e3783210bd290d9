import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { MachineModel } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatDate } from '../../../components/format';
import { ServerList } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { paths } from '../../../routes/paths';
import { useManufacturers, useModelTypes } from '../api/filters';
import { useDeleteModel, useModels } from '../api/models';

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', type: 'model_type', manufacturer: 'manufacturer', createdAt: 'created_at' };
const FILTERS = ['type', 'manufacturer'] as const;

export function ModelsTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const list = useListState(FILTERS);
  const models = useModels({ ...list.params, ...list.filters });
  const types = useModelTypes();
  const manufacturers = useManufacturers();
  const deleteModel = useDeleteModel();

  const columns: GridColDef<MachineModel>[] = [
    { field: 'name', headerName: t('models.name'), flex: 1, minWidth: 180 },
    { field: 'type', headerName: t('models.type'), flex: 1, minWidth: 140 },
    { field: 'manufacturer', headerName: t('models.manufacturer'), flex: 1, minWidth: 160 },
    {
      field: 'createdAt',
      headerName: t('models.createdAt'),
      minWidth: 120,
      valueFormatter: (value: string) => formatDate(value, i18n.language),
    },
  ];

  return (
    <ServerList
      name="models"
      list={list}
      query={models}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('models.noRows')}
      rowLabel={(row) => row.name}
      filters={
        <>
          <ListFilter list={list} filter="type" label={t('models.type')} allLabel={t('models.allTypes')} options={types.data ?? []} testId="models-type-filter" />
          <ListFilter list={list} filter="manufacturer" label={t('models.manufacturer')} allLabel={t('models.allManufacturers')} options={manufacturers.data ?? []} testId="models-manufacturer-filter" />
        </>
      }
      actions={
        can('settings.models.edit')
          ? [{ label: t('common.edit'), icon: <EditIcon fontSize="small" />, onClick: (row) => navigate(paths.settings.editModel(row.id)) }]
          : []
      }
      deletion={
        can('settings.models.delete')
          ? {
              title: t('models.deleteTitle'),
              confirmText: ([row]) => t('models.deleteConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => deleteModel.mutateAsync(row.id),
              pending: deleteModel.isPending,
              successText: () => t('success.modelDeleted'),
            }
          : undefined
      }
    />
  );
}
