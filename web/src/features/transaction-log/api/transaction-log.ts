// The transaction log: every vend of the chosen machines and products, newest first (millions of
// rows: the grid asks for one page at a time), its totals against the span before, and its export.
import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData, type ReportListSource } from '../../../api/report-queries';
import type { Transaction, TransactionTotals } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';

const base = '/api/transaction-logs/';

/** The log, a page at a time. */
export const transactionList: ReportListSource<Transaction> = { path: base };

/** The span's totals and the span before's. */
export function useTransactionTotals(query: Query) {
  return useReportData<TransactionTotals>(`${base}total-table/`, query, true);
}

/** Every transaction of the filters as CSV or XLSX; a large file is queued as a job. */
export function exportTransactions(format: ExportFormat, query: Query) {
  return requestExport(`${base}export/`, { ...query, format }, `transaction-log.${format}`);
}
