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
