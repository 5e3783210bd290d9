import { useSearchParams } from 'react-router';
import { useReportPermission } from '../../../auth/use-permission';
import { ExportMenu } from '../../../components/export-menu';
import { useReportFilters } from '../../../components/report-filters/report-filter-state';
import { ReportScreen } from '../../../components/reports/report-screen';
import { withChanges } from '../../../components/server-list/use-list-state';
import { exportVat } from '../api/vat';
import { VatView } from '../components/vat-view';
import { readVatGroup, VAT_CONTROLS, type VatGroup } from '../vat-logic';

/** VAT: the period's sales by rate (gross, net, VAT), taxable and exempt apart, by client, location or month; the accountant's export. */
export default function VatPage() {
  const allowed = useReportPermission('vat');
  const state = useReportFilters(VAT_CONTROLS);
  const [search, setSearch] = useSearchParams();
  // The grouping is kept in the URL with the filters, so a view is bookmarked as it is.
  const group = readVatGroup(search.get('group'));
  const setGroup = (next: VatGroup) => setSearch((current) => withChanges(current, { group: next === 'rate' ? null : next }));
  const action = allowed('export') ? (
    <ExportMenu testId="vat-export" disabled={state.problem !== null} onExport={(format) => exportVat(format, { ...state.query, group })} />
  ) : null;
  return (
    <ReportScreen name="vat" state={state} action={action} exportOnly={!allowed('list')}>
      <VatView query={state.query} group={group} onGroup={setGroup} />
    </ReportScreen>
  );
}
