import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import type { Location } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ServerList, type ListSelection } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { paths } from '../../../routes/paths';
import { useClientOptions, useRegions } from '../../../api/filter-options';
import { useLocationTypes } from '../api/filters';
import { exportLocations, useDeleteLocation, useLocations } from '../api/locations';
import { ChangeRefillerDialog } from './change-refiller-dialog';

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', address: 'address', type: 'location_type', region: 'region' };
const FILTERS = ['client', 'type', 'region'] as const;

/** The refiller all the chosen rows share, to start the dialog from. */
function sharedRefiller(rows: Location[]): string | undefined {
  const refillers = new Set(rows.map((row) => row.refiller_id ?? ''));
  return refillers.size === 1 ? [...refillers][0] : undefined;
}

export function LocationsTable() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const list = useListState(FILTERS);
  const locations = useLocations({ ...list.params, ...list.filters });
  const clients = useClientOptions();
  const types = useLocationTypes();
  const regions = useRegions();
  const deleteLocation = useDeleteLocation();
  const [refillerFor, setRefillerFor] = useState<Location[] | null>(null);
  const canEdit = can('settings.locations.edit');

  const columns: GridColDef<Location>[] = [
    {
      field: 'name',
      headerName: t('locations.name'),
      flex: 1,
      minWidth: 140,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, lineHeight: 1.4, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {row.name}
          </Typography>
          {row.time_zone ? (
            <Typography variant="caption" noWrap sx={{ color: 'text.secondary' }}>
              {row.time_zone}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    { field: 'address', headerName: t('locations.address'), flex: 1, minWidth: 130 },
    { field: 'type', headerName: t('locations.type'), minWidth: 100 },
    { field: 'region', headerName: t('locations.region'), minWidth: 100 },
    { field: 'client_name', headerName: t('locations.client'), minWidth: 110, flex: 0.7, valueGetter: (_value, row) => row.client_name ?? '' },
    {
      field: 'refiller_name',
      headerName: t('locations.refiller'),
      minWidth: 110,
      flex: 0.7,
      valueGetter: (_value, row) => row.refiller_name ?? '',
    },
  ];

  const changeRefiller = (chosen: ListSelection<Location>) => (
    <>
      {canEdit && chosen.ids.length > 0 ? (
        <Button variant="outlined" color="inherit" startIcon={<PersonIcon />} onClick={() => setRefillerFor(chosen.rows)} data-testid="change-refiller">
          {t('locations.changeRefiller')} ({t('common.selected', { count: chosen.ids.length })})
        </Button>
      ) : null}
      {refillerFor ? (
        <ChangeRefillerDialog
          locationIds={refillerFor.map((row) => row.id)}
          current={sharedRefiller(refillerFor)}
          onClose={(changed) => {
            setRefillerFor(null);
            if (changed) chosen.clear();
          }}
        />
      ) : null}
    </>
  );

  return (
    <ServerList
      name="locations"
      list={list}
      query={locations}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('locations.noRows')}
      rowLabel={(row) => row.name}
      autoRowHeight
      selectable={canEdit}
      toolbar={changeRefiller}
      filters={
        <>
          <ListFilter list={list} filter="client" label={t('locations.client')} allLabel={t('locations.allClients')} options={clients.data ?? []} testId="locations-client-filter" />
          <ListFilter list={list} filter="type" label={t('locations.type')} allLabel={t('locations.allTypes')} options={types.data ?? []} testId="locations-type-filter" />
          <ListFilter list={list} filter="region" label={t('locations.region')} allLabel={t('locations.allRegions')} options={regions.data ?? []} testId="locations-region-filter" />
        </>
      }
      onExport={can('settings.locations.export') ? (format) => exportLocations(format, list.exportParams) : undefined}
      actions={
        canEdit
          ? [{ label: t('common.edit'), icon: <EditIcon fontSize="small" />, onClick: (row) => navigate(paths.settings.editLocation(row.id)) }]
          : []
      }
      deletion={
        can('settings.locations.delete')
          ? {
              title: t('locations.deleteTitle'),
              confirmText: ([row]) => t('locations.deleteConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => deleteLocation.mutateAsync(row.id),
              pending: deleteLocation.isPending,
              successText: () => t('success.locationDeleted'),
            }
          : undefined
      }
    />
  );
}
