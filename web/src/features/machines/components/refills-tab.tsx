import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Chip from '@mui/material/Chip';
import type { Machine, Refill } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import { ServerList } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
import { useRefills } from '../api/machines';

/** This machine's refill log (the last 30 days), newest first. */
export function RefillsTab({ machine }: { machine: Machine }) {
  const { t, i18n } = useTranslation();
  const list = useListState();
  const refills = useRefills({ page: list.params.page, page_size: list.params.page_size, machine: machine.id });
  const sourceLabel: Record<string, string> = {
    manual: t('machines.sourceManual'),
    'fill-stock': t('machines.fillStock'),
    'empty-stock': t('machines.emptyStock'),
  };

  const columns: GridColDef<Refill>[] = [
    { field: 'date', headerName: t('machines.date'), minWidth: 150, valueGetter: (_value, row) => formatDateTime(row.date, i18n.language) },
    { field: 'employee', headerName: t('machines.employee'), minWidth: 130, flex: 0.8 },
    {
      field: 'source',
      headerName: t('machines.source'),
      minWidth: 120,
      renderCell: ({ row }) => <Chip size="small" variant="outlined" label={sourceLabel[row.source] ?? row.source} />,
    },
    { field: 'selection', headerName: t('machines.selection'), minWidth: 90 },
    { field: 'product_name', headerName: t('machines.product'), minWidth: 140, flex: 1 },
    { field: 'amount_added', headerName: t('machines.added'), type: 'number', minWidth: 90 },
    { field: 'amount_removed', headerName: t('machines.removed'), type: 'number', minWidth: 90 },
  ];

  return (
    <ServerList
      name="refills"
      searchable={false}
      list={list}
      query={refills}
      columns={columns}
      sortable={{}}
      noRowsLabel={t('machines.noRefills')}
      rowLabel={(row) => row.id}
    />
  );
}
