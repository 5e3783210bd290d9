import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectList, expectReply } from '../../../api/replies';
import type { Client, ClientForm, ItemReply, ListReply, MessageReply } from '../../../api/types';
import { clientKeys, fleetFilterKeys, locationKeys, type ClientListParams } from './keys';

const base = '/api/clients/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useClients(params: ClientListParams, enabled = true) {
  return useQuery({
    queryKey: clientKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<Client>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

function useInvalidateClients() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: clientKeys.all }),
      // Locations show their client's name.
      client.invalidateQueries({ queryKey: locationKeys.all }),
      client.invalidateQueries({ queryKey: fleetFilterKeys.all }),
    ]);
}

export function useCreateClient() {
  const invalidate = useInvalidateClients();
  return useMutation({
    mutationFn: async (form: ClientForm) =>
      expectReply(await api.post<ItemReply<Client>>(base, form)),
    onSuccess: invalidate,
  });
}

export function useUpdateClient() {
  const invalidate = useInvalidateClients();
  return useMutation({
    mutationFn: async ({ id, form }: { id: string; form: ClientForm }) =>
      expectReply(await api.put<ItemReply<Client>>(one(id), form)),
    onSuccess: invalidate,
  });
}

export function useDeleteClient() {
  const invalidate = useInvalidateClients();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(one(id)),
    onSuccess: invalidate,
  });
}
