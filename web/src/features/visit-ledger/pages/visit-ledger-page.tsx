import { useSearchParams } from 'react-router';
import type { VisitStatus } from '../../../api/types';
import { useReportPermission } from '../../../auth/use-permission';
import { ExportMenu } from '../../../components/export-menu';
import { useReportFilters } from '../../../components/report-filters/report-filter-state';
import { ReportScreen } from '../../../components/reports/report-screen';
import { withChanges } from '../../../components/server-list/use-list-state';
import { exportVisitLedger, useVisitSummary } from '../api/visit-ledger';
import { LedgerList } from '../components/ledger-list';
import { LedgerSummary } from '../components/ledger-summary';
import { StatusFilter } from '../components/status-filter';
import { readStatuses, statusCounts, toggleStatus, VISIT_LEDGER_CONTROLS } from '../visit-ledger-logic';
import type { Query } from '../../../api/client';

/** The ledger's lines of the filters and of the chosen statuses (`?status=`, with the filters in the URL). */
function useStatuses(): [VisitStatus[], (status: VisitStatus | null) => void] {
  const [search, setSearch] = useSearchParams();
  const chosen = readStatuses(search.get('status'));
  const toggle = (status: VisitStatus | null) => {
    const next = status ? toggleStatus(chosen, status) : [];
    // Back to the ledger's first page: the lines it pages through changed.
    setSearch((current) => withChanges(current, { status: next.join(',') || null, page: null }));
  };
  return [chosen, toggle];
}

/**
 * Visit ledger: every cash collection tied to the one before (the cash sales since, the tubes
 * before and after, what was counted, the variance and what explains it), the period's totals by
 * employee and by machine with their trend, and the export.
 */
export default function VisitLedgerPage() {
  const allowed = useReportPermission('visit_ledger');
  const state = useReportFilters(VISIT_LEDGER_CONTROLS);
  const [statuses, toggle] = useStatuses();
  const listQuery: Query = { ...state.query, status: statuses.join(',') || undefined };
  const action = allowed('export') ? (
    <ExportMenu testId="visit-ledger-export" disabled={state.problem !== null} onExport={(format) => exportVisitLedger(format, listQuery)} />
  ) : null;
  return (
    <ReportScreen name="visit-ledger" state={state} action={action} exportOnly={!allowed('list')}>
      <LedgerView query={state.query} listQuery={listQuery} statuses={statuses} onToggle={toggle} />
    </ReportScreen>
  );
}

interface LedgerViewProps {
  /** The filters (the summary and its status counts do not depend on the chosen statuses). */
  query: Query;
  listQuery: Query;
  statuses: VisitStatus[];
  onToggle: (status: VisitStatus | null) => void;
}

function LedgerView({ query, listQuery, statuses, onToggle }: LedgerViewProps) {
  const summary = useVisitSummary(query);
  const total = summary.data?.total;
  return (
    <>
      <LedgerSummary summary={summary} />
      <StatusFilter counts={total ? statusCounts(total) : undefined} total={total?.visits} chosen={statuses} onToggle={onToggle} />
      <LedgerList query={listQuery} filtered={statuses.length > 0} />
    </>
  );
}
