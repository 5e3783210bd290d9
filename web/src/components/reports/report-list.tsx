import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Query } from '../../api/client';
import { useReportList, type ReportListSource } from '../../api/report-queries';
import type { I18nKey } from '../../locales/keys';
import { ServerList } from '../server-list/server-list';
import { useListState } from '../server-list/use-list-state';
import { reportColumns, type ReportColumns } from './report-columns';

/** A row of a report's list: the endpoint's row with its id (its own, or the one `idOf` gives it). */
export type ReportRow<R> = R & { id: string };

/** Which list of a report: its endpoint, its test ids and, by translation key, its texts. */
export interface ReportListSpec<R> {
  /** Test ids: `${name}` on the section, `${name}-grid`, `${name}-error`, `${name}-search`. */
  name: string;
  /** The report's list endpoint, asked with `query` (its filters) and the page of the URL. */
  source: ReportListSource<R>;
  title: I18nKey;
  /** What the grid says when the filters match no row. */
  noRows: I18nKey;
  /** A search box (the endpoint searches by name); the search goes in the URL with the page. */
  searchable?: boolean;
  /**
   * A fixed set of columns that share the grid's width (titles wrap) down to what their cells
   * need, so the last one stays on screen; by default each column keeps the room of its whole
   * title and the grid scrolls sideways.
   */
  fit?: boolean;
}

interface ReportListProps<R extends object> {
  spec: ReportListSpec<R>;
  query: Query;
  /** The columns, from the report column builders in the user's language. */
  columns: (col: ReportColumns<ReportRow<R>>, t: TFunction) => GridColDef<ReportRow<R>>[];
  onRowClick?: (row: ReportRow<R>) => void;
}

/**
 * A report's rows, one server page at a time (a log can hold millions): the page and its size in
 * the URL, beside the report's filters, loading, empty and error (retry) states, and sideways
 * scrolling when the columns do not fit (unless the spec's columns `fit`). The server decides the order (newest first).
 */
export function ReportList<R extends object>({ spec, query, columns, onRowClick }: ReportListProps<R>) {
  const { t, i18n } = useTranslation();
  const { name, source, searchable = false } = spec;
  const list = useListState();
  const page: Query = { ...query, page: list.params.page, page_size: list.params.page_size };
  const rows = useReportList<R>(source.path, searchable ? { ...page, search: list.params.search || undefined } : page, true, source.idOf);
  return (
    <Box component="section" data-testid={name}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {t(spec.title)}
      </Typography>
      <ServerList
        list={list}
        query={rows}
        columns={columns(reportColumns<ReportRow<R>>(i18n.language), t)}
        name={name}
        noRowsLabel={t(spec.noRows)}
        rowLabel={(row) => row.id}
        sortable={{}}
        searchable={searchable}
        onRowClick={onRowClick}
        wide={spec.fit ? 'fit' : true}
      />
    </Box>
  );
}
