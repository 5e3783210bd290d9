// The dashboard's links to the reports behind its figures, and the tally of its attention list.
import type { AttentionMachine, AttentionReason, DashboardSpan } from '../../api/types';
import { reportHref } from '../../components/report-filters/report-filter-state';
import { paths } from '../../routes/paths';
import type { KpiKey } from '../../components/reports/sales-figures';

/** The figures of the today and month cards, in order. */
export const DASHBOARD_KPIS: readonly KpiKey[] = ['sales_minor', 'quantity', 'cash_minor', 'cashless_minor'];

/** The reasons a machine needs attention, most urgent first. */
export const REASONS: readonly AttentionReason[] = ['offline', 'sold_out', 'low', 'expiring', 'cash_box_full', 'held_audits'];

export const REASON_COLOR: Record<AttentionReason, 'error' | 'warning' | 'info'> = {
  offline: 'error',
  sold_out: 'error',
  low: 'warning',
  expiring: 'warning',
  cash_box_full: 'info',
  held_audits: 'info',
};

const overview = paths.report.salesOverview;

/** Where each part of the dashboard leads. */
export const dashboardLinks = {
  /** Today's span, as a custom period of the sales overview. */
  today: (span: Pick<DashboardSpan, 'date_from' | 'date_to'>) =>
    reportHref(overview, { period: 'custom', date_from: span.date_from, date_to: span.date_to }),
  month: reportHref(overview, { period: 'current_month' }),
  topProducts: reportHref(overview, { period: 'current_month', group_by: 'product' }),
  topMachines: reportHref(overview, { period: 'current_month', group_by: 'machine' }),
  machine: (id: string) => paths.settings.machine(id),
};

/** How many machines have each reason, in the order of `REASONS`; reasons no machine has are left out. */
export function attentionSummary(machines: readonly AttentionMachine[]): { reason: AttentionReason; machines: number }[] {
  return REASONS.map((reason) => ({
    reason,
    machines: machines.filter((machine) => machine.findings.some((finding) => finding.reason === reason)).length,
  })).filter((entry) => entry.machines > 0);
}
