// How a collection compares with what was expected: short (less cash than the sales say), over,
// exact, or nothing to compare with (a machine's first collection).
import { formatSignedMoney } from '../../components/reports/signed-money';

export type OverShortTone = 'short' | 'over' | 'exact' | 'none';

export function overShortTone(minor: number | null | undefined): OverShortTone {
  if (minor === null || minor === undefined) return 'none';
  return minor < 0 ? 'short' : minor > 0 ? 'over' : 'exact';
}

/** A short in red, an over in amber (cash nobody accounts for is a finding too), exact in green. */
export const TONE_COLOR = { short: 'error', over: 'warning', exact: 'success', none: 'default' } as const;

/** "+€12.00", "-€289.20", "€0.00". */
export const formatOverShort = formatSignedMoney;
