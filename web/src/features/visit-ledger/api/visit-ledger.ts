// The visit ledger (issue 31): a line per cash collection tying the chain together — the previous
// collection, the cash sales since, the tubes and box before and after, what was counted, the
// variance and what explains it — and the same summed by employee and by machine with a trend.
import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData, type ReportListSource } from '../../../api/report-queries';
import type { VisitLine, VisitSummary } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';

const base = '/api/visit-ledger/';

/** The period's collections, newest first, a page at a time. */
export const visitLedgerList: ReportListSource<VisitLine> = { path: base };

/** The period's totals, by employee and by machine (most short first), with their trends. */
export function useVisitSummary(query: Query) {
  return useReportData<VisitSummary>(`${base}summary/`, query, true);
}

/** Every line of the filters as CSV or XLSX; a large file is queued as a job. */
export function exportVisitLedger(format: ExportFormat, query: Query) {
  return requestExport(`${base}export/`, { ...query, format }, `visit-ledger.${format}`);
}
