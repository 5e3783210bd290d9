/** Date and time in the UI language; empty for missing values. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The units of a relative time, largest first, each with its length in seconds. */
const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/**
 * How long ago (or how far ahead) an instant is, in the UI language, in its largest whole unit:
 * "now" within a minute, "5 minutes ago", "yesterday", "il y a 3 heures", "2 giorni fa"; empty for
 * missing values. `now` is the reference instant (milliseconds, the clock by default).
 */
export function formatRelativeTime(value: string | null | undefined, language: string, now: number = Date.now()): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const seconds = (date.getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const [unit, length] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= length) return format.format(Math.trunc(seconds / length), unit);
  }
  return format.format(0, 'second');
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

/**
 * The span a figure is compared with, in the user's language: "Oct 1 – 27, 2026", "1–27 oct. 2026",
 * one day as "Nov 20, 2026" (calendar dates, whatever the browser's zone).
 */
export function formatDateRange(from: string, to: string, language: string): string {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return from === to ? from : `${from} – ${to}`;
  const format = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return from === to ? format.format(start) : format.formatRange(start, end);
}

/** A count in the user's language ("1,234", "1 234"). */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** "2 × Cup (pcs)" for each component of a composite product (a picklist line's or a total's). */
export function componentsText(components: readonly { quantity: number; name: string; unit: string }[], language: string): string {
  return components.map((component) => `${formatCount(component.quantity, language)} × ${component.name}${component.unit ? ` (${component.unit})` : ''}`).join(', ');
}

/** A distance in metres as kilometres with one decimal ("12.3 km", "12,3 km"). */
export function formatKm(metres: number | null | undefined, language: string): string {
  if (metres === null || metres === undefined || !Number.isFinite(metres)) return '';
  return new Intl.NumberFormat(language, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(metres / 1000);
}

/** A duration in seconds as hours and minutes ("2 hr 5 min", "2 h 5 min"), to the minute. */
export function formatDuration(seconds: number | null | undefined, language: string): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '';
  const total = Math.round(seconds / 60);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  const unit = (value: number, name: 'hour' | 'minute') => new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  if (hours === 0) return unit(minutes, 'minute');
  return minutes === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
}

/**
 * A time of day: a wall-clock `HH:MM[:SS]` as it is meant (in the user's style, "7:30 AM",
 * "07:30"), or an instant's time in the browser's zone; empty for missing values.
 */
export function formatClock(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (clock) {
    const date = new Date(Date.UTC(2000, 0, 1, Number(clock[1]), Number(clock[2])));
    return new Intl.DateTimeFormat(language, { timeStyle: 'short', timeZone: 'UTC' }).format(date);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(date);
}

/** A number with at most `digits` decimals in the user's language ("1.5", "1,5"). */
export function formatDecimal(value: number | null | undefined, language: string, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
}

/** A share (0–1) as a percentage with at most one decimal ("87.5%", "87,5 %"). */
export function formatShare(value: number | null | undefined, language: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}
