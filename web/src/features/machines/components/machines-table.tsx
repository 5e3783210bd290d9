import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridRowSelectionModel, type GridSortModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import TagIcon from '@mui/icons-material/LocalOfferOutlined';
import type { Machine } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { deletionFailure, FilterSelect, SearchField } from '../../../components/fields';
import { formatDate } from '../../../components/format';
import { EMPTY_SELECTION, orderingOf, PAGE_SIZES, selectedIds } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { paths } from '../../../routes/paths';
import { useLocationOptions, useMachineTagOptions, useModelOptions } from '../api/filters';
import type { MachineListParams } from '../api/keys';
import { exportMachines, useDeleteMachine, useMachines, type ExportFormat } from '../api/machines';
import { CopyProductsDialog } from './copy-products-dialog';
import { ManageTagsDialog } from './manage-tags-dialog';

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', serial: 'serial', location_name: 'location', createdAt: 'created_at' };

type Status = MachineListParams['status'];

export function MachinesTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [location, setLocation] = useState('');
  const [model, setModel] = useState('');
  const [tag, setTag] = useState('');
  const [status, setStatus] = useState<Status>('');
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const [confirm, setConfirm] = useState<Machine | null>(null);
  const [dialog, setDialog] = useState<'tags' | 'copy' | null>(null);
  const [exportAnchor, setExportAnchor] = useState<HTMLElement | null>(null);
  const [exporting, setExporting] = useState(false);
  const debouncedSearch = useDebouncedValue(search.trim());

  const params: MachineListParams = {
    page: pagination.page + 1,
    page_size: pagination.pageSize,
    search: debouncedSearch,
    ordering: orderingOf(sortModel, SORTABLE),
    location,
    model,
    tag,
    status,
  };
  const machines = useMachines(params);
  const locations = useLocationOptions();
  const models = useModelOptions();
  const tags = useMachineTagOptions();
  const deleteMachine = useDeleteMachine();
  const rows = useMemo(() => machines.data?.data ?? [], [machines.data]);
  const chosen = selectedIds(selection, rows);
  const canEdit = can('settings.machines.edit');
  const canCopy = can('settings.machines.edit_product');
  const canDelete = can('settings.machines.delete');

  const filterBy =
    <V extends string = string>(setter: (value: V) => void) =>
    (value: string) => {
      setter(value as V);
      setPagination((previous) => ({ ...previous, page: 0 }));
      setSelection(EMPTY_SELECTION);
    };

  const confirmDelete = async () => {
    if (!confirm) return;
    try {
      await deleteMachine.mutateAsync(confirm.id);
      toast.success(t('success.machineDeleted'));
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
      await exportMachines(format, { search: params.search, ordering: params.ordering, location, model, tag, status });
    } catch {
      toast.error(t('errors.unexpected'));
    } finally {
      setExporting(false);
    }
  };

  const columns: GridColDef<Machine>[] = [
    {
      field: 'name',
      headerName: t('machines.name'),
      flex: 1,
      minWidth: 180,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, lineHeight: 1.4, minWidth: 0 }}>
          <Link component={RouterLink} to={paths.settings.machine(row.id, 'overview')} variant="subtitle2" noWrap sx={{ display: 'block' }}>
            {row.name}
          </Link>
          {row.type ? (
            <Typography variant="caption" noWrap sx={{ color: 'text.secondary' }}>
              {row.type}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    { field: 'serial', headerName: t('machines.serial'), minWidth: 120 },
    {
      field: 'model_name',
      headerName: t('machines.model'),
      minWidth: 130,
      sortable: false,
      valueGetter: (_value, row) => row.model_name ?? '',
    },
    {
      field: 'location_name',
      headerName: t('machines.location'),
      minWidth: 150,
      flex: 0.7,
      valueGetter: (_value, row) => row.location_name ?? '',
    },
    {
      field: 'tags',
      headerName: t('machines.tags'),
      minWidth: 160,
      flex: 0.8,
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
        <Chip
          size="small"
          color={row.inactive ? 'default' : 'success'}
          variant="outlined"
          label={row.inactive ? t('common.inactive') : t('common.active')}
        />
      ),
    },
    {
      field: 'createdAt',
      headerName: t('machines.createdAt'),
      minWidth: 120,
      valueGetter: (_value, row) => formatDate(row.createdAt, i18n.language),
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
            <Tooltip title={t('machines.tabSettings')}>
              <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => navigate(paths.settings.machine(row.id, 'settings'))}>
                <SettingsIcon fontSize="small" />
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
          label={t('machines.location')}
          allLabel={t('machines.allLocations')}
          value={location}
          options={locations.data ?? []}
          onChange={filterBy(setLocation)}
          testId="machines-location-filter"
        />
        <FilterSelect
          label={t('machines.model')}
          allLabel={t('machines.allModels')}
          value={model}
          options={models.data ?? []}
          onChange={filterBy(setModel)}
          testId="machines-model-filter"
        />
        <FilterSelect
          label={t('machines.tags')}
          allLabel={t('machines.allTags')}
          value={tag}
          options={tags.data ?? []}
          onChange={filterBy(setTag)}
          testId="machines-tag-filter"
        />
        <FilterSelect
          label={t('common.status')}
          allLabel={t('machines.allStatuses')}
          value={status}
          options={[
            { id: 'active', name: t('common.active') },
            { id: 'inactive', name: t('common.inactive') },
          ]}
          onChange={filterBy<Status>(setStatus)}
          testId="machines-status-filter"
        />
        <SearchField value={search} testId="machines-search" onChange={filterBy(setSearch)} />
        {canEdit && chosen.length > 0 ? (
          <Button variant="outlined" color="inherit" startIcon={<TagIcon />} onClick={() => setDialog('tags')} data-testid="manage-tags">
            {t('machines.manageTags')} ({t('common.selected', { count: chosen.length })})
          </Button>
        ) : null}
        {canCopy && chosen.length > 0 ? (
          <Button variant="outlined" color="inherit" startIcon={<CopyIcon />} onClick={() => setDialog('copy')} data-testid="copy-products">
            {t('machines.copyProducts')}
          </Button>
        ) : null}
        {can('settings.machines.export') ? (
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
      <Box data-testid="machines-grid">
        <DataGrid
          rows={rows}
          columns={columns}
          rowCount={machines.data?.pagination.count ?? 0}
          loading={machines.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          paginationModel={pagination}
          onPaginationModelChange={(next) => {
            setPagination(next);
            setSelection(EMPTY_SELECTION);
          }}
          pageSizeOptions={PAGE_SIZES}
          sortModel={sortModel}
          onSortModelChange={(next) => {
            setSortModel(next);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
          checkboxSelection={canEdit || canCopy}
          disableRowSelectionOnClick
          rowSelectionModel={selection}
          onRowSelectionModelChange={setSelection}
          getRowHeight={() => 'auto'}
          localeText={{ ...localeText, noRowsLabel: t('machines.noRows') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
        />
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t('machines.deleteTitle')}
        content={t('machines.deleteConfirm', { name: confirm?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={deleteMachine.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirm(null)}
      />
      {dialog === 'tags' ? (
        <ManageTagsDialog
          machines={rows.filter((row) => chosen.includes(row.id))}
          onClose={(changed) => {
            setDialog(null);
            if (changed) setSelection(EMPTY_SELECTION);
          }}
        />
      ) : null}
      {dialog === 'copy' ? (
        <CopyProductsDialog
          targets={rows.filter((row) => chosen.includes(row.id))}
          onClose={(changed) => {
            setDialog(null);
            if (changed) setSelection(EMPTY_SELECTION);
          }}
        />
      ) : null}
    </Card>
  );
}
