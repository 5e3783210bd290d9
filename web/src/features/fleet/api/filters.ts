import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Option } from '../../../api/types';
import { fleetFilterKeys } from './keys';

function optionList(queryKey: readonly string[], path: string, staleTime = 60_000) {
  return {
    queryKey,
    queryFn: async () => (await api.get<{ data: Option[] }>(path)).data ?? [],
    staleTime,
  };
}

function textList(queryKey: readonly string[], path: string, staleTime = 60_000) {
  return {
    queryKey,
    queryFn: async () => (await api.get<{ data: string[] }>(path)).data ?? [],
    staleTime,
  };
}

export const useClientOptions = (enabled = true) => useQuery({ ...optionList(fleetFilterKeys.clients, '/api/filters/clients/'), enabled });
export const useEmployeeOptions = (enabled = true) => useQuery({ ...optionList(fleetFilterKeys.employees, '/api/filters/employees/'), enabled });
export const useLocationTypes = () => useQuery(textList(fleetFilterKeys.locationTypes, '/api/filters/locations/types/'));
export const useRegions = (enabled = true) => useQuery({ ...textList(fleetFilterKeys.regions, '/api/filters/regions/'), enabled });
/** Every IANA zone; it does not change while the app runs. */
export const useTimeZones = () => useQuery(textList(fleetFilterKeys.timeZones, '/api/filters/timezones/', Infinity));
export const useModelTypes = () => useQuery(textList(fleetFilterKeys.modelTypes, '/api/filters/machines/models/types/'));
export const useManufacturers = () =>
  useQuery(textList(fleetFilterKeys.manufacturers, '/api/filters/machines/models/manufacturer/'));
