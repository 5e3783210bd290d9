import { useReportPermission } from '../../../auth/use-permission';
import { ExportMenu } from '../../../components/export-menu';
import { TRANSACTION_CONTROLS, useReportFilters } from '../../../components/report-filters/report-filter-state';
import { ReportScreen } from '../../../components/reports/report-screen';
import { exportTransactions } from '../api/transaction-log';
import { TransactionList } from '../components/transaction-list';
import { TransactionTotals } from '../components/transaction-totals';

/** Transaction log: the span's totals against the span before, then every vend. */
export default function TransactionLogPage() {
  const allowed = useReportPermission('transaction_log');
  const state = useReportFilters(TRANSACTION_CONTROLS);
  const action = allowed('export') ? (
    <ExportMenu testId="transaction-export" disabled={state.problem !== null} onExport={(format) => exportTransactions(format, state.query)} />
  ) : null;
  return (
    <ReportScreen name="transaction" state={state} action={action} exportOnly={!allowed('list')}>
      {allowed('list') ? (
        <>
          <TransactionTotals query={state.query} />
          <TransactionList query={state.query} />
        </>
      ) : null}
    </ReportScreen>
  );
}
