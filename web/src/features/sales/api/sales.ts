import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { expectData, expectList } from '../../../api/replies';
import type { ListReply, ReportColumn, SalesBar, SalesDetailRow, SalesLineChart, SalesTotalTable } from '../../../api/types';
import type { ListParams } from '../../../components/server-list/use-list-state';
import { salesKeys } from './keys';

const base = '/api/sales-journal/';

/** The span's totals, the span before and one row a group. */
export function useSalesTotals(query: Query, enabled: boolean) {
  return useQuery({
    queryKey: salesKeys.totals(query),
    queryFn: async () => expectData(await api.get<{ data: SalesTotalTable }>(`${base}total-table/`, { query })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The detail table's columns (titles in the user's language). */
export function useSalesColumns(query: Query, enabled: boolean) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: salesKeys.header(query, i18n.language),
    queryFn: async () => expectData(await api.get<{ data: ReportColumn[] }>('/api/table/header/', { query })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One page of the detail table: a group a row, the chosen value in each period. */
export function useSalesDetail(query: Query, list: ListParams, enabled: boolean) {
  return useQuery({
    queryKey: salesKeys.detail(query, list),
    queryFn: async () =>
      expectList(await api.get<ListReply<SalesDetailRow>>(`${base}detail-table/`, { query: { ...query, ...list } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSalesLineChart(query: Query, enabled: boolean) {
  return useQuery({
    queryKey: salesKeys.line(query),
    queryFn: async () => expectData(await api.get<{ data: SalesLineChart }>(`${base}graphs/line-chart/`, { query })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSalesBarChart(query: Query, enabled: boolean) {
  return useQuery({
    queryKey: salesKeys.bars(query),
    queryFn: async () => expectData(await api.get<{ data: SalesBar[] }>(`${base}graphs/bar-chart/`, { query })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Downloads the detail table (all its rows, same filters, search and order) as CSV or XLSX; a large one is queued as a job. */
export async function exportSalesDetail(format: 'csv' | 'xlsx', query: Query) {
  return requestExport(`${base}detail-table/export/`, { ...query, format }, `sales-overview.${format}`);
}
