import { useReportPermission } from '../../../auth/use-permission';
import { ExportMenu } from '../../../components/export-menu';
import { ENCASHMENT_CONTROLS, useReportFilters } from '../../../components/report-filters/report-filter-state';
import { ReportScreen } from '../../../components/reports/report-screen';
import { exportEncashments } from '../api/encashment';
import { EncashmentList } from '../components/encashment-list';
import { EncashmentTotals } from '../components/encashment-totals';

/** Encashment: the period's cash collections, what the sales say should have been there, overs and shorts. */
export default function EncashmentPage() {
  const allowed = useReportPermission('encashment');
  const state = useReportFilters(ENCASHMENT_CONTROLS);
  const action = allowed('export') ? (
    <ExportMenu testId="encashment-export" disabled={state.problem !== null} onExport={(format) => exportEncashments(format, state.query)} />
  ) : null;
  return (
    <ReportScreen name="encashment" state={state} action={action} exportOnly={!allowed('total') && !allowed('list')}>
      {allowed('total') ? <EncashmentTotals query={state.query} /> : null}
      {allowed('list') ? <EncashmentList query={state.query} /> : null}
    </ReportScreen>
  );
}
