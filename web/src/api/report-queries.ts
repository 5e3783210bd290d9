// The reads of the report screens: one page of a report's list, or a report's `{data}` (totals,
// summaries), by endpoint and parameters. The previous reply stays on screen while the next loads.
import { useCallback } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Query } from './client';
import { expectData, expectList } from './replies';
import type { ListReply } from './types';

export const reportKeys = {
  all: ['reports'] as const,
  read: (path: string, query: Query) => ['reports', path, query] as const,
};

/** A report's list endpoint: where its pages are, and the id of a row that has none of its own. */
export interface ReportListSource<R> {
  path: string;
  /** A module-level function: the grid needs a stable id per row. */
  idOf?: (row: R) => string;
}

/**
 * One page of a report's list (`query` holds its filters, `page` and `page_size`). Rows without
 * an `id` get one from `idOf` (a module-level function: the grid needs a stable id per row).
 */
export function useReportList<R extends object>(path: string, query: Query, enabled: boolean, idOf?: (row: R) => string) {
  const select = useCallback(
    (reply: ListReply<R>): ListReply<R & { id: string }> =>
      idOf ? { ...reply, data: reply.data.map((row) => ({ ...row, id: idOf(row) })) } : (reply as ListReply<R & { id: string }>),
    [idOf],
  );
  return useQuery({
    queryKey: reportKeys.read(path, query),
    queryFn: async () => expectList(await api.get<ListReply<R>>(path, { query })),
    select,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A report's `{data}` reply (totals, summaries). */
export function useReportData<T>(path: string, query: Query, enabled: boolean) {
  return useQuery({
    queryKey: reportKeys.read(path, query),
    queryFn: async () => expectData(await api.get<{ data: T }>(path, { query })),
    placeholderData: keepPreviousData,
    enabled,
  });
}
