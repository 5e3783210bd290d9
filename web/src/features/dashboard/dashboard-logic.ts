// The dashboard's links to the reports behind its figures, and the tally of its attention list.
import type { AttentionMachine, AttentionReason, DashboardSpan } from '../../api/types';
import { reportHref } from '../../components/report-filters/report-filter-state';
import { paths } from '../../routes/paths';
import type { KpiKey } from '../../components/reports/sales-figures';

/** The figures of the today and month cards, in order. */
export const DASHBOARD_KPIS: readonly KpiKey[] = ['sales_minor', 'quantity', 'cash_minor', 'cashless_minor'];

/** Shifts a calendar date ("2026-11-23") by whole days or months (the day kept within the month). */
function shifted(date: string, days: number, months = 0): string {
  const [year, month, day] = date.split('-').map(Number);
  if (months !== 0) {
    const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
    return new Date(Date.UTC(year, month - 1 + months, Math.min(day, last))).toISOString().slice(0, 10);
  }
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/**
 * The span a dashboard card is compared with: the reply's `previous_from`/`previous_to` when it
 * has them, else the server's rule (today against the same weekday last week, the month to date
 * against the same days of the month before).
 */
export function comparedSpan(
  part: 'today' | 'month',
  span: Pick<DashboardSpan, 'date_from' | 'date_to'> & { previous_from?: string; previous_to?: string },
): { from: string; to: string } {
  if (span.previous_from && span.previous_to) return { from: span.previous_from, to: span.previous_to };
  if (part === 'today') return { from: shifted(span.date_from, -7), to: shifted(span.date_to, -7) };
  return { from: shifted(span.date_from, 0, -1), to: shifted(span.date_to, 0, -1) };
}

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
