import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ListReply, RankedMachine } from '../../../api/types';
import { formatCount, formatDate } from '../../../components/format';
import { gridLoading, PAGE_SIZES } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { RowOpenLink } from '../../../components/server-list/cells';
import { HEADER_SX } from '../../../components/server-list/column-widths';
import { mergeSelection } from '../planning-logic';
import { NeedChips } from './need-chip';
import { SignalChips } from './signal-chips';

interface RankedListProps {
  query: { data?: ListReply<RankedMachine>; isFetching: boolean; isError: boolean; refetch: () => unknown };
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  /** The chosen machines, on every page. */
  selected: string[];
  onSelect: (ids: string[]) => void;
  /** Checkboxes (only for whoever may generate a picklist). */
  selectable: boolean;
  onOpen: (row: RankedMachine) => void;
}

/**
 * The machines ranked by need, one server page at a time. The checkboxes keep what was chosen on
 * other pages (the grid only knows the page it shows); a row opens the machine's detail.
 */
export function RankedList({ query, page, pageSize, onPage, selected, onSelect, selectable, onOpen }: RankedListProps) {
  const { t, i18n } = useTranslation();
  const localeText = useGridLocaleText();
  const rows = useMemo(() => query.data?.data ?? [], [query.data]);
  const language = i18n.language;

  const columns: GridColDef<RankedMachine>[] = [
    {
      field: 'name',
      headerName: t('routePlanning.machine'),
      minWidth: 170,
      flex: 1.2,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
          <RowOpenLink label={t('routePlanning.openMachine', { machine: row.name })} onOpen={() => onOpen(row)} variant="subtitle2">
            {row.name}
          </RowOpenLink>
          {row.location_name ? (
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {row.location_name}
            </Typography>
          ) : null}
          <NeedChips need={row.need} offline={row.offline} />
        </Box>
      ),
    },
    { field: 'signals', headerName: t('routePlanning.signalsTitle'), minWidth: 200, flex: 2, sortable: false, renderCell: ({ row }) => <SignalChips row={row} /> },
    {
      // What to bring and by when, in one column: the list shares its row with the map.
      field: 'units_to_bring',
      headerName: t('routePlanning.unitsToBring'),
      minWidth: 96,
      flex: 0.6,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, textAlign: 'right', width: 1 }}>
          <Typography variant="body2">{formatCount(row.units_to_bring, language)}</Typography>
          {row.visit_by ? (
            <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
              {t('routePlanning.visitBy', { date: formatDate(row.visit_by, language) })}
            </Typography>
          ) : null}
        </Box>
      ),
    },
  ];

  return (
    <Box>
      {query.isError ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          data-testid="ranked-error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('routePlanning.listFailed')}
        </Alert>
      ) : null}
      <Box data-testid="ranked-grid" aria-busy={query.isFetching}>
        <DataGrid
          rows={rows}
          columns={columns}
          {...gridLoading(query.isFetching)}
          rowCount={query.data?.pagination.count ?? 0}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          disableColumnSorting
          paginationModel={{ page: page - 1, pageSize }}
          onPaginationModelChange={(model) => onPage(model.page + 1, model.pageSize)}
          pageSizeOptions={PAGE_SIZES}
          checkboxSelection={selectable}
          keepNonExistentRowsSelected
          disableRowSelectionOnClick
          rowSelectionModel={{ type: 'include', ids: new Set(selected) }}
          onRowSelectionModelChange={(model) => onSelect(mergeSelection(selected, model, rows))}
          getRowHeight={() => 'auto'}
          onRowClick={({ row }) => onOpen(row as RankedMachine)}
          localeText={{ ...localeText, noRowsLabel: t('routePlanning.noMachines') }}
          autoHeight
          sx={{
            border: 'none',
            '--DataGrid-overlayHeight': '200px',
            '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
            '& .MuiDataGrid-row': { cursor: 'pointer' },
            ...HEADER_SX,
          }}
        />
      </Box>
    </Box>
  );
}
