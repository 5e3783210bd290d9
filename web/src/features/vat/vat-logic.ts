// The VAT screen's rules: how its groups are chosen (in the URL, beside the filters) and named.
import type { VatRow } from '../../api/types';
import { formatPeriodDate } from '../../components/format';
import { FLEET_FILTERS, type ReportControl } from '../../components/report-filters/report-filter-state';

/** The sales overview's period, fleet and product filters: the totals then agree to the cent. */
export const VAT_CONTROLS: readonly ReportControl[] = ['period', ...FLEET_FILTERS, 'products', 'product_tags'];

/** What the report's rows are grouped by (`group` in the URL and the API); `rate` alone is the default. */
export const VAT_GROUPS = ['rate', 'client', 'location', 'month'] as const;
export type VatGroup = (typeof VAT_GROUPS)[number];

/** `?group=` read back; anything else is the default. */
export function readVatGroup(raw: string | null): VatGroup {
  return VAT_GROUPS.find((group) => group === raw) ?? 'rate';
}

/** A group at a rate: the grid's row id. */
export function vatRowId(row: VatRow): string {
  return `${row.key}|${row.rate_bps}`;
}

/**
 * A group's name as shown: a month (`YYYY-MM`) in the user's language, else the server's name;
 * null for the sales of no group (no client, no location), which the screen names itself.
 */
export function groupName(row: VatRow, group: VatGroup, language: string): string | null {
  if (!row.key && !row.name) return null;
  if (group === 'month' && /^\d{4}-\d{2}$/.test(row.key)) return formatPeriodDate(`${row.key}-01`, 'month', language);
  return row.name || row.key;
}
