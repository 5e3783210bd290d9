// The visit ledger (issue 31): a line per cash collection tying the chain together — the previous
// collection, the cash sales since, the tubes and box before and after, what was counted, the
// variance and what explains it — and the same summed by employee and by machine with a trend.
import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData, type ReportListSource } from '../../../api/report-queries';
import type { ExportFormat } from '../../../components/export-menu';

// The shapes of the lead's contract for `/api/visit-ledger/`, until the server's OpenAPI document
// carries them.

/** What the data shows behind a variance. */
export type ExplanationKind = 'manual_stock_entry' | 'counter_reset' | 'board_change' | 'held_read' | 'tube_refill' | 'late_event';

export interface Explanation {
  kind: ExplanationKind;
  at: string;
  amount_minor: number | null;
  units: number | null;
  /** The records it comes from (a refill, an audit read, an event). */
  refs: string[];
}

/** `first`: nothing to compare with; `matched`: no variance; `explained` / `unexplained`: a variance with or without a record behind it. */
export type VisitStatus = 'first' | 'matched' | 'explained' | 'unexplained';

export interface PreviousCollection {
  id: string;
  at: string;
  bag_no: string;
  employee_name?: string | null;
}

/** One cash collection, tied to the one before it. */
export interface VisitLine {
  id: string;
  at: string;
  local_date: string;
  machine_id: string;
  machine_name: string;
  location_id?: string | null;
  location_name?: string | null;
  employee_id?: string | null;
  employee_name?: string | null;
  bag_no: string;
  currency: string;
  previous: PreviousCollection | null;
  /** Where the cash sales come from: the machine's events, or its audit counters. */
  sales_source: 'events' | 'audit';
  /** Cash sales since the previous collection: what should be there. */
  cash_sales_minor: number | null;
  /** What the tubes held when the previous collector left. */
  tubes_before_minor: number | null;
  tubes_found_minor: number;
  tubes_after_minor: number;
  cash_box_minor: number;
  bill_stacker_minor: number;
  /** The bag. */
  collected_minor: number;
  /** The cash the counts show customers paid: box + stacker + what the tubes gained. */
  counted_minor: number | null;
  /** Counted less cash sales; negative is short. */
  variance_minor: number | null;
  status: VisitStatus;
  explanations: Explanation[];
}

/** A week's or a month's visits of an employee, a machine or all of them. */
export interface TrendPoint {
  start: string;
  visits: number;
  variance_minor: number;
  unexplained: number;
}

/** The visits of an employee, a machine (or all: empty id and name), summed. */
export interface VisitSum {
  id: string;
  name: string;
  visits: number;
  compared: number;
  collected_minor: number;
  cash_sales_minor: number;
  counted_minor: number;
  variance_minor: number;
  shorts: number;
  overs: number;
  explained: number;
  unexplained: number;
  unexplained_minor: number;
  trend: TrendPoint[];
}

export interface VisitSummary {
  total: VisitSum;
  /** Most short first. */
  by_employee: VisitSum[];
  by_machine: VisitSum[];
  trend_grain: 'week' | 'month';
}

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
