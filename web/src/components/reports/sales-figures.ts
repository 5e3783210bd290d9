// Sales figures (the sales overview's, the dashboard's, the transaction log's totals): the KPI
// cards' change against the span before, and the formatting of money (minor units, EUR) and
// quantities in the user's language.
import type { SalesFigures } from '../../api/types';
import { formatCount } from '../format';
import { formatMoney, REPORT_CURRENCY } from '../money';
import type { ReportValue } from '../report-filters/report-filter-state';

/** The machines' currency: the sales API sums amounts in minor units of euros. */
export const SALES_CURRENCY = REPORT_CURRENCY;

export type Trend = 'up' | 'down' | 'flat' | 'new';

export interface Change {
  /** (current − previous) / previous; null when there was nothing before to compare with. */
  ratio: number | null;
  trend: Trend;
}

/** The change of a figure against the span before. */
export function changeOf(current: number, previous: number): Change {
  if (previous === 0) return { ratio: null, trend: current === 0 ? 'flat' : 'new' };
  const ratio = (current - previous) / Math.abs(previous);
  return { ratio, trend: ratio > 0 ? 'up' : ratio < 0 ? 'down' : 'flat' };
}

/** "+12.5%", "−3%", "0%"; "—" when there is nothing to compare with. */
export function formatChange(change: Change, language: string): string {
  if (change.ratio === null) return '—';
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(change.ratio);
}

export function formatEuros(minor: number, language: string): string {
  return formatMoney(minor, SALES_CURRENCY, language);
}

/** A figure of the chosen value: money for sales, a count for quantities. */
export function formatValue(value: number, kind: ReportValue, language: string): string {
  return kind === 'quantity' ? formatCount(value, language) : formatEuros(value, language);
}

export type KpiKey = keyof SalesFigures;

/** The KPI cards, in order, with what their figure is. */
export const KPIS: { key: KpiKey; money: boolean }[] = [
  { key: 'sales_minor', money: true },
  { key: 'sales_excl_tax_minor', money: true },
  { key: 'quantity', money: false },
  { key: 'cash_minor', money: true },
  { key: 'cashless_minor', money: true },
];

export function formatFigure(value: number, money: boolean, language: string): string {
  return money ? formatEuros(value, language) : formatCount(value, language);
}

/** Nothing sold in the span. */
export function isEmptySpan(totals: SalesFigures): boolean {
  return totals.quantity === 0 && totals.sales_minor === 0;
}
