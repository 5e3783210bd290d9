// The dashboard's links to the reports behind its figures, the tally and pages of its attention
// list, and the series of its trend charts.
import type { AttentionMachine, AttentionReason, DayFigures } from '../../api/types';
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

/** Machines a page of the attention list shows. */
export const ATTENTION_PAGE_SIZE = 10;

const overview = paths.report.salesOverview;

/** Where each part of the dashboard leads. */
export const dashboardLinks = {
  /** Today, as a custom period of one day of the sales overview. */
  today: (date: string) => reportHref(overview, { period: 'custom', date_from: date, date_to: date }),
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

/** Page `page` (from 0) of a list, `size` rows a page; the last page when `page` is past the end. */
export function pageOf<T>(rows: readonly T[], page: number, size = ATTENTION_PAGE_SIZE): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const shown = Math.min(Math.max(0, page), pages - 1);
  return { rows: rows.slice(shown * size, (shown + 1) * size), page: shown, pages };
}

/** The day of the month of a bare date (`2026-11-26` → 26). */
const dayOfMonth = (date: string) => Number(date.slice(8, 10));

/** A month's running totals of a figure by day of the month: `[day − 1]` holds the total to that day, null past its last day. */
function runningTotals(days: readonly DayFigures[], key: KpiKey, length: number): (number | null)[] {
  const out: (number | null)[] = Array.from({ length }, () => null);
  let total = 0;
  for (const day of [...days].sort((a, b) => a.date.localeCompare(b.date))) {
    total += day[key];
    out[dayOfMonth(day.date) - 1] = total;
  }
  // A day missing inside the span sold nothing: it carries the total before it.
  let last: number | null = null;
  const lastDay = days.length ? Math.max(...days.map((day) => dayOfMonth(day.date))) : 0;
  return out.map((value, index) => {
    if (index >= lastDay) return null;
    last = value ?? last ?? 0;
    return last;
  });
}

/**
 * This month to date against the month before, day of month by day of month, as running totals
 * (month to date): `days` are 1…the longer month's last day, each series null past its own end.
 */
export function monthToDate(month: readonly DayFigures[], previous: readonly DayFigures[], key: KpiKey) {
  const length = Math.max(0, ...month.map((day) => dayOfMonth(day.date)), ...previous.map((day) => dayOfMonth(day.date)));
  return {
    days: Array.from({ length }, (_, index) => index + 1),
    current: runningTotals(month, key, length),
    previous: runningTotals(previous, key, length),
  };
}
