import type { Location, LocationForm } from '../../../api/types';
import { collect, parseDecimal, rules, type FieldErrors, type FieldProblem } from '../../../components/validation';

export interface LocationFormValues {
  name: string;
  address: string;
  type: string;
  region: string;
  /** '' = no client. */
  client_id: string;
  /** '' = no refiller. */
  refiller_id: string;
  latitude: string;
  longitude: string;
  time_zone: string;
}

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
  return {
    name: '',
    address: '',
    type: '',
    region: '',
    client_id: '',
    refiller_id: '',
    latitude: '',
    longitude: '',
    time_zone: timeZone,
  };
}

export function valuesFromLocation(location: Location): LocationFormValues {
  return {
    name: location.name ?? '',
    address: location.address ?? '',
    type: location.type ?? '',
    region: location.region ?? '',
    client_id: location.client_id ?? '',
    refiller_id: location.refiller_id ?? '',
    latitude: location.latitude == null ? '' : String(location.latitude),
    longitude: location.longitude == null ? '' : String(location.longitude),
    time_zone: location.time_zone ?? '',
  };
}

function coordinate(text: string, limit: number): FieldProblem | undefined {
  const value = parseDecimal(text);
  if (value === null) return undefined;
  if (Number.isNaN(value)) return { key: 'validation.number' };
  return Math.abs(value) <= limit ? undefined : { key: 'validation.range', values: { min: -limit, max: limit } };
}

/** `zones`: the known IANA zones, when loaded; a zone outside them is refused. */
export function validateLocation(values: LocationFormValues, zones?: readonly string[]): FieldErrors<LocationField> {
  let latitude = coordinate(values.latitude, 90);
  let longitude = coordinate(values.longitude, 180);
  const hasLatitude = values.latitude.trim() !== '';
  const hasLongitude = values.longitude.trim() !== '';
  if (hasLatitude !== hasLongitude) {
    if (!hasLatitude) latitude ??= { key: 'validation.bothCoordinates' };
    else longitude ??= { key: 'validation.bothCoordinates' };
  }
  const zone = values.time_zone.trim();
  return collect<LocationField>({
    name: rules.required(values.name) ?? rules.maxLength(values.name, 150),
    address: rules.maxLength(values.address, 300),
    type: rules.maxLength(values.type, 60),
    region: rules.maxLength(values.region, 60),
    client_id: undefined,
    refiller_id: undefined,
    latitude,
    longitude,
    time_zone:
      rules.required(zone) ??
      (zones && zones.length > 0 && !zones.includes(zone) ? { key: 'validation.timeZone' } : undefined),
  });
}

/** The body for POST (create) or PUT (update, with the version read). Call after `validateLocation`. */
export function toLocationForm(values: LocationFormValues, version?: number): LocationForm {
  const latitude = parseDecimal(values.latitude);
  const longitude = parseDecimal(values.longitude);
  const form: LocationForm = {
    name: values.name.trim(),
    address: values.address.trim(),
    type: values.type.trim(),
    region: values.region.trim(),
    client_id: values.client_id || null,
    refiller_id: values.refiller_id || null,
    latitude: latitude === null || Number.isNaN(latitude) ? null : latitude,
    longitude: longitude === null || Number.isNaN(longitude) ? null : longitude,
    time_zone: values.time_zone.trim(),
  };
  if (version !== undefined) form.version = version;
  return form;
}
