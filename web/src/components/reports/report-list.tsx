import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { ServerList, type ListQuery, type ServerListProps } from '../server-list/server-list';
import type { ListState } from '../server-list/use-list-state';

interface ReportListProps<R extends { id: string }> {
  title: string;
  /** Test ids: `${name}` on the section, `${name}-grid`, `${name}-error`, `${name}-search`. */
  name: string;
  /** Paging (and search) in the URL, beside the report's filters. */
  list: ListState;
  query: ListQuery<R>;
  columns: GridColDef<R>[];
  noRowsLabel: string;
  /** A search box (the endpoint searches by name). */
  searchable?: boolean;
  filters?: ServerListProps<R, never>['filters'];
  onRowClick?: (row: R) => void;
}

/**
 * A report's rows, one server page at a time (a log can hold millions): the page and its size in
 * the URL, loading, empty and error (retry) states, and sideways scrolling when the columns do not
 * fit. The server decides the order (newest first).
 */
export function ReportList<R extends { id: string }>({ title, name, list, query, columns, noRowsLabel, searchable = false, filters, onRowClick }: ReportListProps<R>) {
  return (
    <Box component="section" data-testid={name}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      <ServerList
        list={list}
        query={query}
        columns={columns}
        name={name}
        noRowsLabel={noRowsLabel}
        rowLabel={(row) => row.id}
        sortable={{}}
        searchable={searchable}
        filters={filters}
        onRowClick={onRowClick}
        wide
      />
    </Box>
  );
}
