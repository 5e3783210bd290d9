import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { Location, LocationForm } from '../../../api/types';
import { addProblem, decimal, problemsOf, text, texts } from '../../../components/form/rules';
import { blankTexts, idsOrNull, textsOf, trimmedTexts, withVersion } from '../../../components/form/values';
import { parseDecimal } from '../../../components/validation';

const limits = limitsOf('LocationForm');

/** The location's free texts (trimmed when sent). */
const TEXTS = ['name', 'address', 'type', 'region', 'time_zone'] as const;
/** Its links to other records: '' = none. */
const LINKS = ['client_id', 'refiller_id'] as const;

/**
 * The location form's checks. `zones`: the known IANA zones, when loaded; a zone outside them is
 * refused. Coordinates come both or neither.
 */
export function locationSchema(zones?: readonly string[]) {
  return z
    .object({
      ...texts(limits, ['name', 'address', 'type', 'region']),
      /** '' = no client. */
      client_id: z.string(),
      /** '' = no refiller. */
      refiller_id: z.string(),
      latitude: decimal(limits('latitude')),
      longitude: decimal(limits('longitude')),
      time_zone: text(limits('time_zone'), {
        check: (zone) => (zones && zones.length > 0 && !zones.includes(zone) ? { key: 'validation.timeZone' } : undefined),
      }),
    })
    .check(
      z.superRefine((values, ctx) => {
        const hasLatitude = values.latitude.trim() !== '';
        const hasLongitude = values.longitude.trim() !== '';
        if (hasLatitude !== hasLongitude) addProblem(ctx, [hasLatitude ? 'longitude' : 'latitude'], 'validation.bothCoordinates');
      }),
    );
}

export type LocationFormValues = z.infer<ReturnType<typeof locationSchema>>;

export type LocationField = keyof LocationFormValues;

export const LOCATION_ERROR_ALIASES = { location_type: 'type' };

/** The browser's own IANA zone, the default for a new location. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function emptyLocationValues(timeZone = browserTimeZone()): LocationFormValues {
  return { ...blankTexts([...TEXTS, ...LINKS]), latitude: '', longitude: '', time_zone: timeZone };
}

export function valuesFromLocation(location: Location): LocationFormValues {
  return {
    ...textsOf(location, [...TEXTS, ...LINKS]),
    latitude: location.latitude == null ? '' : String(location.latitude),
    longitude: location.longitude == null ? '' : String(location.longitude),
  };
}

export function validateLocation(values: LocationFormValues, zones?: readonly string[]) {
  return problemsOf(locationSchema(zones), values);
}

/** The place the coordinates as typed stand for, for the map: both numbers within range, else null. */
export function typedPoint(latitude: string, longitude: string): { latitude: number; longitude: number } | null {
  const lat = parseDecimal(latitude);
  const lon = parseDecimal(longitude);
  if (lat === null || lon === null || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { latitude: lat, longitude: lon };
}

/** The body for POST (create) or PUT (update, with the version read). Call after `validateLocation`. */
export function toLocationForm(values: LocationFormValues, version?: number): LocationForm {
  const latitude = parseDecimal(values.latitude);
  const longitude = parseDecimal(values.longitude);
  return withVersion(
    {
      ...trimmedTexts(values, TEXTS),
      ...idsOrNull(values, LINKS),
      latitude: latitude === null || Number.isNaN(latitude) ? null : latitude,
      longitude: longitude === null || Number.isNaN(longitude) ? null : longitude,
    },
    version,
  );
}
