// The visit ledger (issue 31): a line per cash collection tying the chain together — the previous
// collection, the cash sales since, the tubes and box before and after, what was counted, the
// variance and what explains it — and the same summed by employee and by machine with a trend.
import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData, type ReportListSource } from '../../../api/report-queries';
import type { components } from '../../../api/schema';
import type { ExportFormat } from '../../../components/export-menu';

type Schemas = components['schemas'];

/** What the data shows behind a variance. */
export type ExplanationKind = Schemas['ExplanationKind'];
/** One explanation and the records (refill-log lines, audit reads, vend events) it cites. */
export type Explanation = Schemas['Explanation'];
/** `first`: nothing to compare with; `matched`: no variance; `explained` / `unexplained`: a variance with or without a record behind it. */
export type VisitStatus = Schemas['VisitStatus'];
/** One cash collection, tied to the one before it (`previous`). */
export type VisitLine = Schemas['VisitLine'];
/** A week's or a month's visits of an employee, a machine or all of them. */
export type TrendPoint = Schemas['TrendPoint'];
/** The visits of an employee, a machine (or all: empty id and name), summed. */
export type VisitSum = Schemas['VisitSum'];
/** The totals, by employee and by machine (most short first), and how the trends are cut. */
export type VisitSummary = Schemas['VisitSummary'];

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
