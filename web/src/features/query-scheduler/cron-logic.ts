// The schedule of a query: the five cron fields, the presets that write them ("every day at…",
// "every Monday at…", "first day of the month at…"), and the schedule in words in the user's
// language (cronstrue, with its French and Italian).
import cronstrue from 'cronstrue';
import 'cronstrue/locales/fr';
import 'cronstrue/locales/it';
import type { Cron } from '../../api/types';

export const CRON_FIELDS = ['minute', 'hour', 'day_of_month', 'month', 'day_of_week'] as const;
export type CronField = (typeof CRON_FIELDS)[number];

/** Every day at 07:00: the server's default too. */
export const DEFAULT_CRON: Cron = { minute: '0', hour: '7', day_of_month: '*', month: '*', day_of_week: '*' };

/** 0 = Sunday … 6 = Saturday, as cron counts them. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0] as const;
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

export type PresetKind = 'daily' | 'weekly' | 'monthly' | 'custom';
export const PRESET_KINDS: readonly PresetKind[] = ['daily', 'weekly', 'monthly', 'custom'];

export type Preset =
  | { kind: 'daily'; hour: number; minute: number }
  | { kind: 'weekly'; weekday: number; hour: number; minute: number }
  | { kind: 'monthly'; hour: number; minute: number }
  | { kind: 'custom' };

/** The cron fields of a preset (a custom one has none of its own: the fields stay as typed). */
export function cronOfPreset(preset: Exclude<Preset, { kind: 'custom' }>): Cron {
  const time = { minute: String(preset.minute), hour: String(preset.hour), month: '*' };
  switch (preset.kind) {
    case 'daily':
      return { ...time, day_of_month: '*', day_of_week: '*' };
    case 'weekly':
      return { ...time, day_of_month: '*', day_of_week: String(preset.weekday) };
    case 'monthly':
      return { ...time, day_of_month: '1', day_of_week: '*' };
  }
}

/** A single whole number within `lo..hi` (leading zeros allowed), else null. */
function single(text: string, lo: number, hi: number): number | null {
  const value = text.trim();
  if (!/^\d{1,2}$/.test(value)) return null;
  const number = Number(value);
  return number >= lo && number <= hi ? number : null;
}

/** One day of the week (0–7 or SUN–SAT) as 0–6, else null. */
function weekday(text: string): number | null {
  const value = text.trim().toUpperCase();
  const named = DAY_NAMES.indexOf(value);
  if (named >= 0) return named;
  const number = single(value, 0, 7);
  return number === null ? null : number % 7;
}

/** The preset the fields are, or `custom` when none writes them. */
export function presetOf(cron: Cron): Preset {
  const minute = single(cron.minute, 0, 59);
  const hour = single(cron.hour, 0, 23);
  const dayOfMonth = cron.day_of_month.trim();
  const dayOfWeek = cron.day_of_week.trim();
  if (minute === null || hour === null || cron.month.trim() !== '*') return { kind: 'custom' };
  if (dayOfMonth === '*' && dayOfWeek === '*') return { kind: 'daily', hour, minute };
  if (dayOfMonth === '1' && dayOfWeek === '*') return { kind: 'monthly', hour, minute };
  const day = dayOfMonth === '*' ? weekday(dayOfWeek) : null;
  return day === null ? { kind: 'custom' } : { kind: 'weekly', weekday: day, hour, minute };
}

/** `07:05` for the time input. */
export function timeText(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** `07:05` → 7 and 5; null when it is not a time. */
export function parseTime(text: string): { hour: number; minute: number } | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** `0 7 * * 1`. */
export function cronExpression(cron: Cron): string {
  return CRON_FIELDS.map((field) => cron[field].trim() || '*').join(' ');
}

const LOCALES = ['en', 'fr', 'it'];

/** A daily time reads "Every day at 07:00", not a bare "At 07:00" (issue 29). */
const EVERY_DAY: Record<string, (time: string) => string> = {
  en: (time) => `Every day at ${time}`,
  fr: (time) => `Tous les jours à ${time}`,
  it: (time) => `Ogni giorno alle ${time}`,
};

/** The schedule in words in `language` ("At 07:00, only on Monday"); null when the fields do not read as cron. */
export function describeCron(cron: Cron, language: string): string | null {
  if (CRON_FIELDS.some((field) => !cron[field].trim())) return null;
  const code = language.split('-')[0];
  const daily = /^\d{1,2}$/.test(cron.minute.trim()) && /^\d{1,2}$/.test(cron.hour.trim()) && [cron.day_of_month, cron.month, cron.day_of_week].every((field) => field.trim() === '*');
  const minute = Number(cron.minute.trim());
  const hour = Number(cron.hour.trim());
  if (daily && minute < 60 && hour < 24) {
    return (EVERY_DAY[code] ?? EVERY_DAY.en)(`${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
  }
  try {
    return cronstrue.toString(cronExpression(cron), {
      locale: LOCALES.includes(code) ? code : 'en',
      use24HourTimeFormat: true,
      throwExceptionOnParseError: true,
    });
  } catch {
    return null;
  }
}

/** The cron fields trimmed, as the request takes them. */
export function trimmedCron(cron: Cron): Cron {
  return { minute: cron.minute.trim(), hour: cron.hour.trim(), day_of_month: cron.day_of_month.trim(), month: cron.month.trim(), day_of_week: cron.day_of_week.trim() };
}

/** An instant in a zone, in the user's language, with the zone's short name; in UTC when the zone is unknown. */
export function formatInZone(instant: string, timeZone: string, language: string, style: 'long' | 'short' = 'long'): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  const options: Intl.DateTimeFormatOptions =
    style === 'long'
      ? { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }
      : { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(date);
  }
}
