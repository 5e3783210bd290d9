// The planning settings' form: values as typed (texts), their checks and the `PUT` body. The
// server is the judge (it may be more lenient); these checks catch what cannot be a value at all.
import * as z from 'zod/mini';
import type { FieldLimits } from '../../api/limits';
import { addProblem, decimal, text, wholeNumber } from '../../components/form/rules';
import { amountToMinor, currencyDecimals, minorToAmount, REPORT_CURRENCY } from '../../components/money';
import { parseDecimal } from '../../components/validation';
import type { PlanningSettings } from '../../api/types';

const need = (minimum?: number, maximum?: number): FieldLimits => ({ required: true, minimum, maximum });
const optional = (minimum?: number, maximum?: number): FieldLimits => ({ required: false, minimum, maximum });
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The amounts are in the reports' currency (the settings carry none). */
const DECIMALS = currencyDecimals(REPORT_CURRENCY);

export const settingsSchema = z
  .object({
    low_share_pct: wholeNumber(need(0, 100)),
    expiry_days: wholeNumber(need(0)),
    auto_collect: text(need(), { check: (value) => (amountToMinor(value, DECIMALS).ok ? undefined : { key: 'validation.amount' }) }),
    stale_hours: wholeNumber(need(1)),
    velocity_days: wholeNumber(need(7, 91)),
    horizon_days: wholeNumber(need(0)),
    van_capacity: wholeNumber(need(1)),
    shift_start: text(need(), { pattern: TIME, patternMessage: 'routePlanning.problems.time' }),
    shift_end: text(need(), { pattern: TIME, patternMessage: 'routePlanning.problems.time' }),
    service_minutes: wholeNumber(need(0)),
    road_factor: decimal(need(1)),
    speed_kmh: decimal(need(1)),
    depot_latitude: decimal(optional(-90, 90)),
    depot_longitude: decimal(optional(-180, 180)),
  })
  .check(
    z.superRefine((values, ctx) => {
      const hasLatitude = values.depot_latitude.trim() !== '';
      const hasLongitude = values.depot_longitude.trim() !== '';
      if (hasLatitude !== hasLongitude) addProblem(ctx, [hasLatitude ? 'depot_longitude' : 'depot_latitude'], 'validation.bothCoordinates');
      if (TIME.test(values.shift_start.trim()) && TIME.test(values.shift_end.trim()) && values.shift_end.trim() <= values.shift_start.trim()) {
        addProblem(ctx, ['shift_end'], 'routePlanning.problems.shiftOrder');
      }
    }),
  );

export type SettingsValues = z.infer<typeof settingsSchema>;

/** The server's `auto_collect_minor` is the form's amount. */
export const SETTINGS_ALIASES = { auto_collect_minor: 'auto_collect' };

const shown = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function valuesFromSettings(settings: PlanningSettings): SettingsValues {
  return {
    low_share_pct: shown(settings.low_share_pct),
    expiry_days: shown(settings.expiry_days),
    auto_collect: minorToAmount(settings.auto_collect_minor, DECIMALS),
    stale_hours: shown(settings.stale_hours),
    velocity_days: shown(settings.velocity_days),
    horizon_days: shown(settings.horizon_days),
    van_capacity: shown(settings.van_capacity),
    shift_start: settings.shift_start.slice(0, 5),
    shift_end: settings.shift_end.slice(0, 5),
    service_minutes: shown(settings.service_minutes),
    road_factor: shown(settings.road_factor),
    speed_kmh: shown(settings.speed_kmh),
    depot_latitude: shown(settings.depot_latitude),
    depot_longitude: shown(settings.depot_longitude),
  };
}

const number = (text: string) => {
  const value = parseDecimal(text);
  return value === null || Number.isNaN(value) ? null : value;
};

/** `PUT /api/route-planning/settings/` with the version read. Call once the values pass the schema. */
export function toSettingsBody(values: SettingsValues, version: number): PlanningSettings {
  const collect = amountToMinor(values.auto_collect, DECIMALS);
  return {
    low_share_pct: Number(values.low_share_pct.trim()),
    expiry_days: Number(values.expiry_days.trim()),
    auto_collect_minor: collect.ok ? collect.minor : 0,
    stale_hours: Number(values.stale_hours.trim()),
    velocity_days: Number(values.velocity_days.trim()),
    horizon_days: Number(values.horizon_days.trim()),
    van_capacity: Number(values.van_capacity.trim()),
    shift_start: values.shift_start.trim(),
    shift_end: values.shift_end.trim(),
    service_minutes: Number(values.service_minutes.trim()),
    road_factor: number(values.road_factor) ?? 1,
    speed_kmh: number(values.speed_kmh) ?? 1,
    depot_latitude: number(values.depot_latitude),
    depot_longitude: number(values.depot_longitude),
    version,
  };
}
