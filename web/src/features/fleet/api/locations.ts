import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { expectItem, expectList, expectReply } from '../../../api/replies';
import type { ItemReply, ListReply, Location, LocationForm, MessageReply } from '../../../api/types';
import { clientKeys, fleetFilterKeys, locationKeys, type LocationListParams } from './keys';

const base = '/api/locations/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useLocations(params: LocationListParams, enabled = true) {
  return useQuery({
    queryKey: locationKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<Location>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useLocation(id: string | undefined) {
  return useQuery({
    queryKey: locationKeys.detail(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<Location>>(one(id ?? ''))).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

function useInvalidateLocations() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: locationKeys.all }),
      client.invalidateQueries({ queryKey: clientKeys.all }),
      client.invalidateQueries({ queryKey: fleetFilterKeys.all }),
    ]);
}

export function useCreateLocation() {
  const invalidate = useInvalidateLocations();
  return useMutation({
    mutationFn: async (form: LocationForm) =>
      expectReply(await api.post<ItemReply<Location>>(base, form)),
    onSuccess: invalidate,
  });
}

export function useUpdateLocation(id: string) {
  const invalidate = useInvalidateLocations();
  return useMutation({
    mutationFn: async (form: LocationForm) =>
      expectReply(await api.put<ItemReply<Location>>(one(id), form)),
    onSuccess: invalidate,
  });
}

export function useDeleteLocation() {
  const invalidate = useInvalidateLocations();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(one(id)),
    onSuccess: invalidate,
  });
}

/** New refiller (or none) for several locations, all or nothing. */
export function useChangeRefiller() {
  const invalidate = useInvalidateLocations();
  return useMutation({
    mutationFn: async ({ locationIds, refillerId }: { locationIds: string[]; refillerId: string | null }) =>
      expectReply(
        await api.post<{ message: string; data: Location[] }>(`${base}change-refiller/`, {
          location_ids: locationIds,
          refiller_id: refillerId,
        }),
      ),
    onSuccess: invalidate,
  });
}

export type ExportFormat = 'csv' | 'xlsx';

/** Downloads the locations list (same filters as on screen) as CSV or Excel; a large one is queued as a job (see `requestExport`). */
export async function exportLocations(format: ExportFormat, filters: Omit<LocationListParams, 'page' | 'page_size'>) {
  return requestExport(`${base}export/`, { format, ...filters }, `locations.${format}`);
}
