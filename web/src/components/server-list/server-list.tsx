import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridRowSelectionModel, type GridSortModel } from '@mui/x-data-grid';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { ExportOutcome } from '../../api/download';
import type { ListReply } from '../../api/types';
import { ConfirmDialog } from '../confirm-dialog';
import { ExportMenu, type ExportFormat } from '../export-menu';
import { deletionFailure, SearchField } from '../fields';
import { EMPTY_SELECTION, gridLoading, PAGE_SIZES, selectedIds } from '../grid';
import { useGridLocaleText } from '../grid-locale';
import { toast } from '../snackbar';
import { actionsWidth, CHECKBOX_WIDTH, fitColumns, HEADER_SX, useWidth } from './column-widths';
import type { ListState } from './use-list-state';

export { replyMessage } from './reply-message';

export type { ExportFormat } from '../export-menu';

/** An icon button in a row's Actions column. */
export interface RowAction<R> {
  /** Tooltip; the aria-label is `${label}: ${rowLabel(row)}` unless `ariaLabel` says otherwise. */
  label: string;
  ariaLabel?: string;
  icon: ReactNode;
  onClick: (row: R) => void;
  /** Shown for this row? (default: yes) */
  show?: (row: R) => boolean;
  /** Why the action is refused for this row: shown but disabled, the reason as its tooltip. */
  refusal?: (row: R) => string | null | undefined;
  color?: 'error';
}

/** Deleting rows: the row's delete icon, and with `bulk` the chosen rows, after a confirmation. */
export interface ListDeletion<R> {
  /** Delete icon for this row? (default: yes); with `bulk` also whether the row can be chosen. */
  show?: (row: R) => boolean;
  bulk?: boolean;
  title: string;
  confirmText: (rows: R[]) => ReactNode;
  /** Deletes the rows; rejects on a failed request (a 409 shows the server's reason). */
  remove: (rows: R[]) => Promise<unknown>;
  pending: boolean;
  /** The toast after success, given the server's reply. */
  successText: (reply: unknown, rows: R[]) => string;
}

/** The rows chosen with the checkboxes, for the toolbar's bulk actions. */
export interface ListSelection<R> {
  rows: R[];
  ids: string[];
  clear: () => void;
}

export type ListQuery<R> = {
  data?: ListReply<R>;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
};

export interface ServerListProps<R extends { id: string }, F extends string> {
  list: ListState<F>;
  /** The area's list query (its hook's result). */
  query: ListQuery<R>;
  columns: GridColDef<R>[];
  /** Names the test ids: `${name}-grid`, `${name}-search`, `${name}-export`. */
  name: string;
  noRowsLabel: string;
  /** Names a row in its actions' aria-labels. */
  rowLabel: (row: R) => string;
  /** Grid column → the server's ordering name; columns not named here do not sort. */
  sortable?: Record<string, string>;
  /** 'client': the reply holds every row; the grid pages and sorts them itself. */
  paging?: 'server' | 'client';
  searchable?: boolean;
  /** Toolbar content before the search box (filters, a small create form). */
  filters?: ReactNode;
  /** Toolbar content after the search box, given the chosen rows (bulk actions). */
  toolbar?: (selection: ListSelection<R>) => ReactNode;
  /** Checkbox selection for the toolbar's bulk actions. */
  selectable?: boolean;
  isRowSelectable?: (row: R) => boolean;
  /** Exports the list; a queued job (a large table) is followed in a progress snackbar. */
  onExport?: (format: ExportFormat) => Promise<ExportOutcome | void>;
  actions?: RowAction<R>[];
  deletion?: ListDeletion<R>;
  /** Opens a row (its detail); the row shows it can be clicked. */
  onRowClick?: (row: R) => void;
  /** Rows as tall as their content (two-line cells, chips). */
  autoRowHeight?: boolean;
  /**
   * Many columns (a report's periods): each keeps the room of its title and its own minimum, and
   * the grid scrolls sideways, rather than every column being squeezed into the grid's width.
   * `'fit'`: the columns share the grid's width down to their own minimum (what their cells
   * need), and only a grid narrower than that scrolls.
   */
  wide?: boolean | 'fit';
}

/** The grid's sort model for an `ordering` value (`-name` → name descending). */
export function sortModelOf(ordering: string, sortable: Record<string, string> | undefined): GridSortModel {
  if (!ordering) return [];
  const descending = ordering.startsWith('-');
  const name = descending ? ordering.slice(1) : ordering;
  const field = sortable ? Object.keys(sortable).find((key) => sortable[key] === name) : name;
  return field ? [{ field, sort: descending ? 'desc' : 'asc' }] : [];
}

function orderingFor(model: GridSortModel, sortable: Record<string, string> | undefined): string {
  const first = model[0];
  if (!first?.sort) return '';
  const name = sortable ? sortable[first.field] : first.field;
  return name ? `${first.sort === 'desc' ? '-' : ''}${name}` : '';
}

/**
 * One list screen: toolbar (filters, search, bulk actions, export), the data grid with server
 * paging and sorting driven by `useListState`, row actions, delete confirmation, and the loading,
 * empty and error states.
 */
export function ServerList<R extends { id: string }, F extends string>(props: ServerListProps<R, F>) {
  const { list, query, columns, name, noRowsLabel, rowLabel, sortable, paging = 'server', searchable = true } = props;
  const { filters, toolbar, selectable, onExport, actions = [], deletion, autoRowHeight, wide, onRowClick } = props;
  const { t } = useTranslation();
  const localeText = useGridLocaleText();
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const [confirming, setConfirming] = useState<R[] | null>(null);
  const [gridBox, setGridBox] = useState<HTMLDivElement | null>(null);
  const gridWidth = useWidth(gridBox);
  const rows = useMemo(() => query.data?.data ?? [], [query.data]);

  // Another page, order, search or filter: what was chosen is no longer on screen.
  const stateKey = JSON.stringify([list.params, list.filters]);
  const [seenKey, setSeenKey] = useState(stateKey);
  if (stateKey !== seenKey) {
    setSeenKey(stateKey);
    setSelection(EMPTY_SELECTION);
  }

  const chosenIds = selectedIds(selection, rows);
  const chosen: ListSelection<R> = {
    ids: chosenIds,
    rows: rows.filter((row) => chosenIds.includes(row.id)),
    clear: () => setSelection(EMPTY_SELECTION),
  };
  const bulkDelete = Boolean(deletion?.bulk);
  const isRowSelectable = props.isRowSelectable ?? (bulkDelete ? deletion?.show : undefined);

  const confirmDelete = async () => {
    if (!confirming || !deletion) return;
    try {
      const reply = await deletion.remove(confirming);
      toast.success(deletion.successText(reply, confirming));
      setSelection(EMPTY_SELECTION);
    } catch (error) {
      // A row still in use answers 409 with the server's reason: show it.
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setConfirming(null);
    }
  };

  const rowActions: RowAction<R>[] = deletion
    ? [...actions, { label: t('common.delete'), icon: <DeleteIcon fontSize="small" />, color: 'error', show: deletion.show, onClick: (row) => setConfirming([row]) }]
    : actions;

  // Every column but Actions shares the width left, down to a minimum that holds its header;
  // Actions keeps the room of its icons, so nothing is pushed off the right edge (column-widths.ts).
  const checkboxes = Boolean(selectable) || bulkDelete;
  const sorts = (column: GridColDef) => column.sortable !== false && (paging === 'client' || Boolean(sortable && column.field in sortable));
  const actionsColumnWidth = actionsWidth(rowActions.length, t('common.actions'));
  const allColumns: GridColDef<R>[] = fitColumns(
    columns.map((column) => ({ ...column, flex: column.flex ?? 0.5, sortable: sorts(column as GridColDef) })),
    { available: wide === true ? undefined : gridWidth, squeeze: !wide, reserved: (checkboxes ? CHECKBOX_WIDTH : 0) + (rowActions.length > 0 ? actionsColumnWidth : 0), sorts },
  );
  if (rowActions.length > 0) {
    allColumns.push({
      field: 'actions',
      headerName: t('common.actions'),
      sortable: false,
      disableColumnMenu: true,
      resizable: false,
      hideable: false,
      align: 'right',
      headerAlign: 'right',
      width: actionsColumnWidth,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', height: 1 }}>
          {rowActions.map((action) => {
            if (action.show && !action.show(row)) return null;
            const refusal = action.refusal?.(row);
            const button = (
              <IconButton
                aria-label={`${action.ariaLabel ?? action.label}: ${rowLabel(row)}`}
                color={action.color}
                disabled={Boolean(refusal)}
                onClick={() => action.onClick(row)}
              >
                {action.icon}
              </IconButton>
            );
            // A disabled button gets no pointer events: the tooltip sits on a wrapper.
            return refusal ? (
              <Tooltip key={action.label} title={refusal}>
                <span>{button}</span>
              </Tooltip>
            ) : (
              <Tooltip key={action.label} title={action.label}>
                {button}
              </Tooltip>
            );
          })}
        </Box>
      ),
    });
  }

  const toolbarContent = (
    <>
      {filters}
      {searchable ? <SearchField value={list.searchInput} testId={`${name}-search`} onChange={list.setSearch} /> : null}
      {toolbar?.(chosen)}
      {bulkDelete && chosen.ids.length > 0 ? (
        <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={() => setConfirming(chosen.rows)}>
          {t('common.delete')} ({t('common.selected', { count: chosen.ids.length })})
        </Button>
      ) : null}
      {onExport ? <ExportMenu onExport={onExport} testId={`${name}-export`} /> : null}
    </>
  );
  const hasToolbar = Boolean(filters) || searchable || Boolean(toolbar) || bulkDelete || Boolean(onExport);
  const { page, page_size: pageSize, ordering } = list.params;

  return (
    <Card>
      {hasToolbar ? <Box sx={{ p: 2.5, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>{toolbarContent}</Box> : null}
      {query.isError ? (
        <Alert
          severity="error"
          sx={{ mx: 2.5, mb: 2 }}
          data-testid={`${name}-error`}
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('errors.listFailed')}
        </Alert>
      ) : null}
      <Box ref={setGridBox} data-testid={`${name}-grid`} aria-busy={query.isFetching}>
        <DataGrid
          rows={rows}
          columns={allColumns}
          {...gridLoading(query.isFetching)}
          {...(paging === 'server' ? { rowCount: query.data?.pagination.count ?? 0, paginationMode: 'server', sortingMode: 'server', filterMode: 'server' } : {})}
          disableColumnFilter
          paginationModel={{ page: page - 1, pageSize }}
          onPaginationModelChange={(model) => list.setPage(model.page + 1, model.pageSize)}
          pageSizeOptions={PAGE_SIZES}
          sortModel={sortModelOf(ordering, paging === 'client' ? undefined : sortable)}
          onSortModelChange={(model) => list.setOrdering(orderingFor(model, paging === 'client' ? undefined : sortable))}
          checkboxSelection={checkboxes}
          isRowSelectable={isRowSelectable ? ({ row }) => isRowSelectable(row) : undefined}
          disableRowSelectionOnClick
          rowSelectionModel={selection}
          onRowSelectionModelChange={setSelection}
          getRowHeight={autoRowHeight ? () => 'auto' : undefined}
          onRowClick={onRowClick ? ({ row }) => onRowClick(row as R) : undefined}
          localeText={{ ...localeText, noRowsLabel }}
          autoHeight
          sx={{
            border: 'none',
            '--DataGrid-overlayHeight': '200px',
            '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
            ...(onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : {}),
            ...HEADER_SX,
          }}
        />
      </Box>
      {deletion ? (
        <ConfirmDialog
          open={Boolean(confirming)}
          title={deletion.title}
          content={confirming ? deletion.confirmText(confirming) : null}
          confirmLabel={t('common.delete')}
          loading={deletion.pending}
          onConfirm={() => void confirmDelete()}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </Card>
  );
}
