import type { ReactNode } from 'react';
import type { GridValidRowModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import { ReportFailure } from './report-notices';
import { SummaryTable, type SummaryTableProps } from './summary-table';

/** What a query table reads of its query (a `useQuery` of a list). */
export interface ListQuery<R> {
  data: R[] | undefined;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

type QueryTableProps<R extends GridValidRowModel> = Omit<SummaryTableProps<R>, 'rows' | 'loading' | 'notice'> & {
  query: ListQuery<R>;
  /** What says the list could not be read (with a retry, `<testId>-error`, above the grid). */
  failed: string;
  /** Defaults to while the query fetches. */
  loading?: boolean;
  /** A button at the end of the title's line (a new record, an action on all). */
  action?: ReactNode;
};

/** A summary table of the rows a query read: loading while it fetches, its failure with a retry above the grid. */
export function QueryTable<R extends GridValidRowModel>({ query, failed, loading = query.isFetching, action, title, testId, ...props }: QueryTableProps<R>) {
  return (
    <SummaryTable
      {...props}
      testId={testId}
      title={
        action ? (
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
            {title}
            {action}
          </Box>
        ) : (
          title
        )
      }
      rows={query.data ?? []}
      loading={loading}
      notice={query.isError ? <ReportFailure query={query} testId={`${testId}-error`} text={failed} /> : undefined}
    />
  );
}
