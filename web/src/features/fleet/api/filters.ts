import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { fleetFilterKeys } from './keys';

function textList(queryKey: readonly string[], path: string, staleTime = 60_000) {
  return {
    queryKey,
    queryFn: async () => (await api.get<{ data: string[] }>(path)).data ?? [],
    staleTime,
  };
}

// The fleet's own lists; the lists other areas pick from too are in `api/filter-options.ts`.
export const useLocationTypes = () => useQuery(textList(fleetFilterKeys.locationTypes, '/api/filters/locations/types/'));
/** Every IANA zone; it does not change while the app runs. */
export const useTimeZones = () => useQuery(textList(fleetFilterKeys.timeZones, '/api/filters/timezones/', Infinity));
export const useModelTypes = () => useQuery(textList(fleetFilterKeys.modelTypes, '/api/filters/machines/models/types/'));
export const useManufacturers = () =>
  useQuery(textList(fleetFilterKeys.manufacturers, '/api/filters/machines/models/manufacturer/'));
