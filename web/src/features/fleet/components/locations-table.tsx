import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridRowSelectionModel, type GridSortModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import type { Location } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useGridLocaleText } from '../../../components/grid-locale';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { paths } from '../../../routes/paths';
import { useClientOptions, useLocationTypes, useRegions } from '../api/filters';
import type { LocationListParams } from '../api/keys';
import { exportLocations, useDeleteLocation, useLocations, type ExportFormat } from '../api/locations';
import { ChangeRefillerDialog } from './change-refiller-dialog';
import { deletionFailure, FilterSelect, SearchField } from '../../../components/fields';
import { EMPTY_SELECTION, orderingOf, PAGE_SIZES, selectedIds } from '../../../components/grid';

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', address: 'address', type: 'location_type', region: 'region' };

export function LocationsTable() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [client, setClient] = useState('');
  const [type, setType] = useState('');
  const [region, setRegion] = useState('');
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const [confirm, setConfirm] = useState<Location | null>(null);
  const [refillerFor, setRefillerFor] = useState<string[] | null>(null);
  const [exportAnchor, setExportAnchor] = useState<HTMLElement | null>(null);
  const [exporting, setExporting] = useState(false);
  const debouncedSearch = useDebouncedValue(search.trim());

  const params: LocationListParams = {
    page: pagination.page + 1,
    page_size: pagination.pageSize,
    search: debouncedSearch,
    ordering: orderingOf(sortModel, SORTABLE),
    client,
    type,
    region,
  };
  const locations = useLocations(params);
  const clients = useClientOptions();
  const types = useLocationTypes();
  const regions = useRegions();
  const deleteLocation = useDeleteLocation();
  const rows = useMemo(() => locations.data?.data ?? [], [locations.data]);
  const chosen = selectedIds(selection, rows);
  const canEdit = can('settings.locations.edit');
  const canDelete = can('settings.locations.delete');

  const filterBy = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    setPagination((previous) => ({ ...previous, page: 0 }));
    setSelection(EMPTY_SELECTION);
  };

  const confirmDelete = async () => {
    if (!confirm) return;
    try {
      await deleteLocation.mutateAsync(confirm.id);
      toast.success(t('success.locationDeleted'));
      setSelection(EMPTY_SELECTION);
    } catch (error) {
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setConfirm(null);
    }
  };

  const runExport = async (format: ExportFormat) => {
    setExportAnchor(null);
    setExporting(true);
    try {
      await exportLocations(format, { search: params.search, ordering: params.ordering, client, type, region });
    } catch {
      toast.error(t('errors.unexpected'));
    } finally {
      setExporting(false);
    }
  };

  /** The refiller all the chosen rows share, to start the dialog from. */
  const sharedRefiller = (ids: string[]): string | undefined => {
    const refillers = new Set(rows.filter((row) => ids.includes(row.id)).map((row) => row.refiller_id ?? ''));
    return refillers.size === 1 ? [...refillers][0] : undefined;
  };

  const columns: GridColDef<Location>[] = [
    {
      field: 'name',
      headerName: t('locations.name'),
      flex: 1,
      minWidth: 160,
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
    { field: 'address', headerName: t('locations.address'), flex: 1, minWidth: 160 },
    { field: 'type', headerName: t('locations.type'), minWidth: 110 },
    { field: 'region', headerName: t('locations.region'), minWidth: 110 },
    {
      field: 'client_name',
      headerName: t('locations.client'),
      minWidth: 140,
      flex: 0.7,
      sortable: false,
      valueGetter: (_value, row) => row.client_name ?? '',
    },
    {
      field: 'refiller_name',
      headerName: t('locations.refiller'),
      minWidth: 140,
      flex: 0.7,
      sortable: false,
      valueGetter: (_value, row) => row.refiller_name ?? '',
    },
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
              <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => navigate(paths.settings.editLocation(row.id))}>
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
          label={t('locations.client')}
          allLabel={t('locations.allClients')}
          value={client}
          options={clients.data ?? []}
          onChange={filterBy(setClient)}
          testId="locations-client-filter"
        />
        <FilterSelect
          label={t('locations.type')}
          allLabel={t('locations.allTypes')}
          value={type}
          options={types.data ?? []}
          onChange={filterBy(setType)}
          testId="locations-type-filter"
        />
        <FilterSelect
          label={t('locations.region')}
          allLabel={t('locations.allRegions')}
          value={region}
          options={regions.data ?? []}
          onChange={filterBy(setRegion)}
          testId="locations-region-filter"
        />
        <SearchField value={search} testId="locations-search" onChange={filterBy(setSearch)} />
        {canEdit && chosen.length > 0 ? (
          <Button
            variant="outlined"
            color="inherit"
            startIcon={<PersonIcon />}
            onClick={() => setRefillerFor(chosen)}
            data-testid="change-refiller"
          >
            {t('locations.changeRefiller')} ({t('common.selected', { count: chosen.length })})
          </Button>
        ) : null}
        {can('settings.locations.export') ? (
          <>
            <Button
              color="inherit"
              variant="outlined"
              startIcon={<DownloadIcon />}
              loading={exporting}
              onClick={(event) => setExportAnchor(event.currentTarget)}
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
      <Box data-testid="locations-grid">
        <DataGrid
          rows={rows}
          columns={columns}
          rowCount={locations.data?.pagination.count ?? 0}
          loading={locations.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          paginationModel={pagination}
          onPaginationModelChange={(model) => {
            setPagination(model);
            setSelection(EMPTY_SELECTION);
          }}
          pageSizeOptions={PAGE_SIZES}
          sortModel={sortModel}
          onSortModelChange={(model) => {
            setSortModel(model);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
          checkboxSelection={canEdit}
          disableRowSelectionOnClick
          rowSelectionModel={selection}
          onRowSelectionModelChange={setSelection}
          getRowHeight={() => 'auto'}
          localeText={{ ...localeText, noRowsLabel: t('locations.noRows') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
        />
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t('locations.deleteTitle')}
        content={t('locations.deleteConfirm', { name: confirm?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={deleteLocation.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirm(null)}
      />
      {refillerFor ? (
        <ChangeRefillerDialog
          locationIds={refillerFor}
          current={sharedRefiller(refillerFor)}
          onClose={(changed) => {
            setRefillerFor(null);
            if (changed) setSelection(EMPTY_SELECTION);
          }}
        />
      ) : null}
    </Card>
  );
}
