import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import TagIcon from '@mui/icons-material/LocalOfferOutlined';
import type { Machine } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatDate } from '../../../components/format';
import { StatusChip, TagChips } from '../../../components/server-list/cells';
import { ServerList, type ListSelection } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { paths } from '../../../routes/paths';
import { useLocationOptions, useMachineTagOptions } from '../../../api/filter-options';
import { useModelOptions } from '../api/filters';
import type { MachineListParams } from '../api/keys';
import { exportMachines, useDeleteMachine, useMachines } from '../api/machines';
import { CopyProductsDialog } from './copy-products-dialog';
import { ManageTagsDialog } from './manage-tags-dialog';

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', serial: 'serial', location_name: 'location', createdAt: 'created_at' };
const FILTERS = ['location', 'model', 'tag', 'status'] as const;

type Status = MachineListParams['status'];
const asStatus = (value: string): Status => (value === 'active' || value === 'inactive' ? value : '');

export function MachinesTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const list = useListState(FILTERS);
  const status = asStatus(list.filters.status);
  const machines = useMachines({ ...list.params, ...list.filters, status });
  const locations = useLocationOptions();
  const models = useModelOptions();
  const tags = useMachineTagOptions();
  const deleteMachine = useDeleteMachine();
  const [dialog, setDialog] = useState<{ kind: 'tags' | 'copy'; machines: Machine[] } | null>(null);
  const canEdit = can('settings.machines.edit');
  const canCopy = can('settings.machines.edit_product');

  const columns: GridColDef<Machine>[] = [
    {
      field: 'name',
      headerName: t('machines.name'),
      flex: 1,
      minWidth: 140,
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
    { field: 'serial', headerName: t('machines.serial'), minWidth: 90 },
    { field: 'model_name', headerName: t('machines.model'), minWidth: 90, valueGetter: (_value, row) => row.model_name ?? '' },
    {
      field: 'location_name',
      headerName: t('machines.location'),
      minWidth: 110,
      flex: 0.7,
      valueGetter: (_value, row) => row.location_name ?? '',
    },
    {
      field: 'tags',
      headerName: t('machines.tags'),
      minWidth: 110,
      flex: 0.8,
      renderCell: ({ row }) => <TagChips tags={row.tags} />,
    },
    {
      field: 'inactive',
      headerName: t('common.status'),
      minWidth: 90,
      renderCell: ({ row }) => <StatusChip inactive={row.inactive} />,
    },
    {
      field: 'createdAt',
      headerName: t('machines.createdAt'),
      minWidth: 100,
      valueGetter: (_value, row) => formatDate(row.createdAt, i18n.language),
    },
  ];

  const bulkActions = (chosen: ListSelection<Machine>) => {
    const close = (changed: boolean) => {
      setDialog(null);
      if (changed) chosen.clear();
    };
    return (
      <>
        {canEdit && chosen.ids.length > 0 ? (
          <Button
            variant="outlined"
            color="inherit"
            startIcon={<TagIcon />}
            onClick={() => setDialog({ kind: 'tags', machines: chosen.rows })}
            data-testid="manage-tags"
          >
            {t('machines.manageTags')} ({t('common.selected', { count: chosen.ids.length })})
          </Button>
        ) : null}
        {canCopy && chosen.ids.length > 0 ? (
          <Button
            variant="outlined"
            color="inherit"
            startIcon={<CopyIcon />}
            onClick={() => setDialog({ kind: 'copy', machines: chosen.rows })}
            data-testid="copy-products"
          >
            {t('machines.copyProducts')}
          </Button>
        ) : null}
        {dialog?.kind === 'tags' ? <ManageTagsDialog machines={dialog.machines} onClose={close} /> : null}
        {dialog?.kind === 'copy' ? <CopyProductsDialog targets={dialog.machines} onClose={close} /> : null}
      </>
    );
  };

  const statuses = [
    { id: 'active', name: t('common.active') },
    { id: 'inactive', name: t('common.inactive') },
  ];

  return (
    <ServerList
      name="machines"
      list={list}
      query={machines}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('machines.noRows')}
      rowLabel={(row) => row.name}
      autoRowHeight
      selectable={canEdit || canCopy}
      toolbar={bulkActions}
      filters={
        <>
          <ListFilter list={list} filter="location" label={t('machines.location')} allLabel={t('machines.allLocations')} options={locations.data ?? []} testId="machines-location-filter" />
          <ListFilter list={list} filter="model" label={t('machines.model')} allLabel={t('machines.allModels')} options={models.data ?? []} testId="machines-model-filter" />
          <ListFilter list={list} filter="tag" label={t('machines.tags')} allLabel={t('machines.allTags')} options={tags.data ?? []} testId="machines-tag-filter" />
          <ListFilter list={list} filter="status" value={status} label={t('common.status')} allLabel={t('machines.allStatuses')} options={statuses} testId="machines-status-filter" />
        </>
      }
      onExport={can('settings.machines.export') ? (format) => exportMachines(format, { ...list.exportParams, status }) : undefined}
      actions={
        canEdit
          ? [
              {
                label: t('machines.tabSettings'),
                ariaLabel: t('common.edit'),
                icon: <SettingsIcon fontSize="small" />,
                onClick: (row) => navigate(paths.settings.machine(row.id, 'settings')),
              },
            ]
          : []
      }
      deletion={
        can('settings.machines.delete')
          ? {
              title: t('machines.deleteTitle'),
              confirmText: ([row]) => t('machines.deleteConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => deleteMachine.mutateAsync(row.id),
              pending: deleteMachine.isPending,
              successText: () => t('success.machineDeleted'),
            }
          : undefined
      }
    />
  );
}
