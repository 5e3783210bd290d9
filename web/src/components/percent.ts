/** Commission is stored in basis points (250 = 2.5 %) and shown and typed as a percentage. */
export const MAX_BPS = 10_000;

/** 250 → "2.5", 1234 → "12.34", 0 → "0" (dot as decimal separator, no trailing zeros). */
export function bpsToPercent(bps: number): string {
  const sign = bps < 0 ? '-' : '';
  const abs = Math.abs(Math.round(bps));
  const whole = Math.floor(abs / 100);
  const cents = abs % 100;
  if (cents === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/** The percentage in the UI language, e.g. "2,5 %" in French. */
export function formatPercent(bps: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 }).format(bps / 10_000);
}

export type PercentResult = { ok: true; bps: number } | { ok: false; reason: 'format' | 'range' };

/**
 * "2.5", "2,5", "2.5 %" → 250 basis points; empty → 0. At most two decimals, 0 to 100.
 * Computed on the digits, so "0.29" is exactly 29 (no floating-point rounding).
 */
export function percentToBps(text: string): PercentResult {
  const v = text.trim().replace(/\s*%$/, '').trim();
  if (!v) return { ok: true, bps: 0 };
  const match = /^(\d+)(?:[.,](\d{0,2}))?$/.exec(v);
  if (!match) return { ok: false, reason: /^-\d+(?:[.,]\d{0,2})?$/.test(v) ? 'range' : 'format' };
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (bps > MAX_BPS) return { ok: false, reason: 'range' };
  return { ok: true, bps };
}
