import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectItem, expectList, expectReply } from '../../../api/replies';
import type { ItemReply, ListReply, MachineModel, MachineModelForm, MessageReply } from '../../../api/types';
import { fleetFilterKeys, modelKeys, type ModelListParams } from './keys';

const base = '/api/machines/models/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useModels(params: ModelListParams, enabled = true) {
  return useQuery({
    queryKey: modelKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<MachineModel>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useModel(id: string | undefined) {
  return useQuery({
    queryKey: modelKeys.detail(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<MachineModel>>(one(id ?? ''))).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

function useInvalidateModels() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: modelKeys.all }),
      client.invalidateQueries({ queryKey: fleetFilterKeys.all }),
    ]);
}

export function useCreateModel() {
  const invalidate = useInvalidateModels();
  return useMutation({
    mutationFn: async (form: MachineModelForm) =>
      expectReply(await api.post<ItemReply<MachineModel>>(base, form)),
    onSuccess: invalidate,
  });
}

export function useUpdateModel(id: string) {
  const invalidate = useInvalidateModels();
  return useMutation({
    mutationFn: async (form: MachineModelForm) =>
      expectReply(await api.put<ItemReply<MachineModel>>(one(id), form)),
    onSuccess: invalidate,
  });
}

export function useDeleteModel() {
  const invalidate = useInvalidateModels();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(one(id)),
    onSuccess: invalidate,
  });
}
