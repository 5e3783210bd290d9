// How urgent a stock figure is: an expiry date passed or near, a selection sold out or low.

export type ExpiryTone = 'expired' | 'soon' | 'ok' | 'none';

/** Days before an expiry date when it shows as near. */
export const EXPIRY_SOON_DAYS = 3;

/** Today in the browser's time zone, `YYYY-MM-DD` (expiry dates are local days). */
export function localToday(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** An expiry date before today is expired; up to `EXPIRY_SOON_DAYS` ahead, soon. */
export function expiryTone(expiry: string | null | undefined, today: string): ExpiryTone {
  if (!expiry) return 'none';
  if (expiry < today) return 'expired';
  return expiry <= addDays(today, EXPIRY_SOON_DAYS) ? 'soon' : 'ok';
}

export const EXPIRY_COLOR: Record<ExpiryTone, string | undefined> = { expired: 'error.main', soon: 'warning.main', ok: undefined, none: undefined };

/** Quantity over capacity, 0 to 1 (0 without capacity). */
export function fillRatio(quantity: number, capacity: number): number {
  return capacity > 0 ? Math.min(1, Math.max(0, quantity / capacity)) : 0;
}
