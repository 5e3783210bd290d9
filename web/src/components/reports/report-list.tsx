import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Query } from '../../api/client';
import { useReportList, type ReportListSource } from '../../api/report-queries';
import { ServerList } from '../server-list/server-list';
import { useListState } from '../server-list/use-list-state';

interface ReportListProps<R extends object> {
  title: string;
  /** Test ids: `${name}` on the section, `${name}-grid`, `${name}-error`, `${name}-search`. */
  name: string;
  /** The report's list endpoint, asked with `query` (its filters) and the page of the URL. */
  source: ReportListSource<R>;
  query: Query;
  columns: GridColDef<R & { id: string }>[];
  noRowsLabel: string;
  /** A search box (the endpoint searches by name); the search goes in the URL with the page. */
  searchable?: boolean;
  onRowClick?: (row: R & { id: string }) => void;
}

/**
 * A report's rows, one server page at a time (a log can hold millions): the page and its size in
 * the URL, beside the report's filters, loading, empty and error (retry) states, and sideways
 * scrolling when the columns do not fit. The server decides the order (newest first).
 */
export function ReportList<R extends object>({ title, name, source, query, columns, noRowsLabel, searchable = false, onRowClick }: ReportListProps<R>) {
  const list = useListState();
  const page: Query = { ...query, page: list.params.page, page_size: list.params.page_size };
  const rows = useReportList<R>(source.path, searchable ? { ...page, search: list.params.search || undefined } : page, true, source.idOf);
  return (
    <Box component="section" data-testid={name}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      <ServerList
        list={list}
        query={rows}
        columns={columns}
        name={name}
        noRowsLabel={noRowsLabel}
        rowLabel={(row) => row.id}
        sortable={{}}
        searchable={searchable}
        onRowClick={onRowClick}
        wide
      />
    </Box>
  );
}
