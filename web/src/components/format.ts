/** Date and time in the UI language; empty for missing values. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A calendar date (`YYYY-MM-DD`, already somebody's local day) or an instant, as a date. */
export function formatDate(value: string | null | undefined, language: string, timeZone?: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  // A bare date parses as UTC midnight: read it back in UTC, or a browser west of Greenwich
  // shows the day before.
  const zone = /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'UTC' : timeZone;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: zone }).format(date);
}

/** A bare date (`YYYY-MM-DD`) in the user's language, short ("3 Nov", "Nov 2026" for months, "Nov 3, 2026" for a span's ends). */
export function formatPeriodDate(date: string, grouping: 'day' | 'week' | 'month' | 'span', language: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  const options: Intl.DateTimeFormatOptions =
    grouping === 'month' ? { month: 'short', year: 'numeric' } : grouping === 'span' ? { dateStyle: 'medium' } : { day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(parsed);
}

/** A count in the user's language ("1,234", "1 234"). */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}
