// The visit ledger's rules: the statuses of a line and how they filter, the chain a line ties
// together, and each explanation of a variance in words.
import type { TFunction } from 'i18next';
import type { Explanation, VisitLine, VisitStatus, VisitSum } from '../../api/types';
import { formatCount, formatDate } from '../../components/format';
import { formatMoney } from '../../components/money';
import { ENCASHMENT_CONTROLS, splitList, type ReportControl } from '../../components/report-filters/report-filter-state';

/** The encashment's filters: the period, the fleet pickers and the employees who collected. */
export const VISIT_LEDGER_CONTROLS: readonly ReportControl[] = ENCASHMENT_CONTROLS;

/** The statuses in the order the screen lists them: what needs a look first. */
export const STATUSES = ['unexplained', 'explained', 'matched', 'first'] as const satisfies readonly VisitStatus[];

/** An unexplained variance in red (it stands out), an explained one in blue, matched in green, a first collection plain. */
export const STATUS_COLOR = { unexplained: 'error', explained: 'info', matched: 'success', first: 'default' } as const;

export function isStatus(value: string): value is VisitStatus {
  return (STATUSES as readonly string[]).includes(value);
}

/** `?status=unexplained,explained` read back: known statuses only, in the screen's order. */
export function readStatuses(raw: string | null): VisitStatus[] {
  const chosen = splitList(raw).filter(isStatus);
  return STATUSES.filter((status) => chosen.includes(status));
}

/** A status chip pressed or released: the statuses chosen after it (none: every line). */
export function toggleStatus(chosen: readonly VisitStatus[], status: VisitStatus): VisitStatus[] {
  return chosen.includes(status) ? chosen.filter((value) => value !== status) : STATUSES.filter((value) => value === status || chosen.includes(value));
}

/** How many lines of each status a sum holds (its first collections are those not compared). */
export function statusCounts(sum: VisitSum | undefined): Record<VisitStatus, number> {
  if (!sum) return { unexplained: 0, explained: 0, matched: 0, first: 0 };
  return {
    unexplained: sum.unexplained,
    explained: sum.explained,
    matched: Math.max(0, sum.compared - sum.explained - sum.unexplained),
    first: Math.max(0, sum.visits - sum.compared),
  };
}

/** What the tubes gained between the previous collector leaving and this one arriving: part of what customers paid. */
export function tubesGained(line: VisitLine): number | null {
  const before = line.tubes_before_minor ?? null;
  return before === null ? null : line.tubes_minor - before;
}

/** "Short by €0.50", "Over by €2.00", "Exact", or, for a first collection, nothing to compare. */
export function varianceText(t: TFunction, minor: number | null | undefined, currency: string, language: string): string {
  if (minor === null || minor === undefined) return t('visitLedger.notCompared');
  const amount = formatMoney(Math.abs(minor), currency, language);
  return minor < 0 ? t('visitLedger.shortBy', { amount }) : minor > 0 ? t('visitLedger.overBy', { amount }) : t('visitLedger.exact');
}

/**
 * One explanation of a variance as a sentence in the user's language: what the record is, when,
 * and how much (units, an amount) where the data has it.
 */
export function explanationText(t: TFunction, explanation: Explanation, currency: string, language: string): string {
  const date = formatDate(explanation.at, language);
  const minor = explanation.amount_minor ?? null;
  const amount = minor === null ? null : formatMoney(Math.abs(minor), currency, language);
  const units = explanation.units ?? null;
  const counted = units === null ? null : { count: units, units: formatCount(units, language) };
  switch (explanation.kind) {
    case 'manual_stock_entry':
      return counted ? t('visitLedger.explain.manualStockEntry', { date, ...counted }) : t('visitLedger.explain.manualStockEntryNoUnits', { date });
    case 'counter_reset':
      return t('visitLedger.explain.counterReset', { date });
    case 'board_change':
      return t('visitLedger.explain.boardChange', { date });
    case 'held_read':
      return amount ? t('visitLedger.explain.heldRead', { date, amount }) : t('visitLedger.explain.heldReadNoAmount', { date });
    case 'tube_refill':
      return amount ? t('visitLedger.explain.tubeRefill', { date, amount }) : t('visitLedger.explain.tubeRefillNoAmount', { date });
    case 'late_event':
      return t('visitLedger.explain.lateEvent', { count: units ?? 0, units: formatCount(units ?? 0, language), amount: amount ?? formatMoney(0, currency, language) });
    default:
      return t('visitLedger.explain.unknown', { date });
  }
}
