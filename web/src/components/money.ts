/**
 * Money travels as integer minor units (150 = 1.50 in a currency with 2 decimals) and is typed
 * and shown as a decimal amount. Conversions work on the digits, never through floating point,
 * so "0.29" is exactly 29 and "19.99" exactly 1999.
 */

/** The currency of the reports' sums (the server adds up amounts in minor units of euros). */
export const REPORT_CURRENCY = 'EUR';

/** The largest amount in minor units the server accepts for a price. */
export const MAX_PRICE_MINOR = 100_000_000;

/** Decimals of an ISO 4217 currency, as the server counts them (JPY 0, KWD 3, most 2). */
export function currencyDecimals(code: string): number {
  const zero = ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];
  const three = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
  const upper = code.trim().toUpperCase();
  if (zero.includes(upper)) return 0;
  if (three.includes(upper)) return 3;
  return 2;
}

/** 150 with 2 decimals → "1.50"; 5 → "0.05"; 150 with 0 decimals → "150" (dot as separator). */
export function minorToAmount(minor: number, decimals = 2): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(minor)));
  if (decimals <= 0) return `${sign}${digits}`;
  const padded = digits.padStart(decimals + 1, '0');
  return `${sign}${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}

export type AmountResult = { ok: true; minor: number } | { ok: false; reason: 'format' | 'decimals' | 'range' };

/**
 * "1.5", "1,50", "  2 " → minor units with `decimals` digits; empty → `{ok: false, 'format'}`.
 * Refuses signs, words, more decimals than the currency has and more than `max`.
 */
export function amountToMinor(text: string, decimals = 2, max = MAX_PRICE_MINOR): AmountResult {
  const v = text.trim();
  if (/^-\s*\d/.test(v)) return { ok: false, reason: 'range' };
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(v) ?? /^()[.,](\d+)$/.exec(v);
  if (!match) return { ok: false, reason: 'format' };
  const whole = match[1] || '0';
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return { ok: false, reason: 'decimals' };
  const minorText = `${whole}${fraction.padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '');
  if (minorText.length > 15) return { ok: false, reason: 'range' };
  const minor = Number(minorText);
  if (minor > max) return { ok: false, reason: 'range' };
  return { ok: true, minor };
}

/** The amount in the UI language with its currency, e.g. "1,50 €" in French. */
export function formatMoney(minor: number, currency: string, language: string, decimals = currencyDecimals(currency)): string {
  const amount = minorToAmount(minor, decimals);
  try {
    return new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}
