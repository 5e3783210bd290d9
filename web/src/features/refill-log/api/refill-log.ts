// The refill log takes the reports' shared period and filters, as the other reports do; the
// screen also shows the period's first and last day, which it reads from the presets.
import { useQuery } from '@tanstack/react-query';
import { api, type Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { reportKeys, useReportData, type ReportListSource } from '../../../api/report-queries';
import { expectData } from '../../../api/replies';
import type { PeriodPreset, ProductRefills, Refill } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';
import { REFILL_CONTROLS, reportQuery, type ReportFilters } from '../../../components/report-filters/report-filter-state';

const base = '/api/refills/';

/** The refill endpoints' parameters for the filters, and the period's first and last day. */
export type RefillQuery = { query: Query; from: string; to: string };

/**
 * The refill endpoints' parameters for the filters (the shared period and filters) with the
 * period's first and last day (a preset's from today's presets); null until the presets are known.
 */
export function refillQuery(filters: ReportFilters, presets: PeriodPreset[] | undefined): RefillQuery | null {
  const preset = presets?.find((item) => item.key === filters.period);
  const from = filters.period === 'custom' ? filters.date_from : preset?.date_from;
  const to = filters.period === 'custom' ? filters.date_to : preset?.date_to;
  if (!from || !to) return null;
  return { query: reportQuery(filters, REFILL_CONTROLS), from, to };
}

/** The refill log, newest first, a page at a time. */
export const refillList: ReportListSource<Refill> = { path: base };

/** What the period's refills added and removed of each product (largest net first). */
export function useRefillTotals(query: Query) {
  return useReportData<ProductRefills[]>(`${base}products/total/`, query, true);
}

/** The lines of the refill visit a log line belongs to (same machine, employee and source, within minutes), by selection. */
export function useRefillVisit(lineId: string | null) {
  const path = `${base}${encodeURIComponent(lineId ?? '')}/products`;
  return useQuery({
    queryKey: reportKeys.read(path, {}),
    queryFn: async () => expectData(await api.get<{ data: Refill[] }>(path)),
    enabled: Boolean(lineId),
  });
}

/** Every line of the refill log of the filters as CSV or XLSX; a large file is queued as a job. */
export function exportRefills(format: ExportFormat, query: Query) {
  return requestExport(`${base}export/`, { ...query, format }, `refill-log.${format}`);
}
