import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectData, expectReply } from '../../../api/replies';
import type { DataSource, DataSourceForm, ItemReply, MessageReply } from '../../../api/types';
import { dataSourceKeys } from './keys';

const base = '/api/settings/data-sources/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

/** How often the sources' health is read again while the screen is open. */
const HEALTH_REFRESH_MS = 60_000;

/**
 * Every data source with its health, by name (`GET /api/settings/data-sources/`, the whole list in
 * one reply). The screen says itself when it fails (a user who does not see every machine is
 * refused 403).
 */
export function useDataSources(enabled = true) {
  return useQuery({
    queryKey: dataSourceKeys.list,
    queryFn: async () => expectData(await api.get<{ data: DataSource[] }>(base)),
    enabled,
    staleTime: 0,
    refetchInterval: HEALTH_REFRESH_MS,
    meta: { silent: true },
  });
}

/** A change of a source changes its health and what the inbox may take again. */
function useInvalidateDataSources() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: dataSourceKeys.all });
}

export function useCreateDataSource() {
  const invalidate = useInvalidateDataSources();
  return useMutation({
    mutationFn: async (form: DataSourceForm) => expectReply(await api.post<ItemReply<DataSource>>(base, form)),
    onSuccess: invalidate,
  });
}

/** Saves a source read at `form.version` (409 when someone changed it since). */
export function useUpdateDataSource() {
  const invalidate = useInvalidateDataSources();
  return useMutation({
    mutationFn: async ({ id, form }: { id: string; form: DataSourceForm }) => expectReply(await api.put<ItemReply<DataSource>>(one(id), form)),
    onSuccess: invalidate,
  });
}

/** Deletes a source; the messages it kept stay in the inbox. */
export function useDeleteDataSource() {
  const invalidate = useInvalidateDataSources();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(one(id)),
    onSuccess: invalidate,
  });
}
