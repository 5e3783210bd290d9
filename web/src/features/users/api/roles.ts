import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectItem, expectList, expectReply } from '../../../api/replies';
import type { ItemReply, ListReply, MessageReply, Role, RoleForm } from '../../../api/types';
import { filterKeys, roleKeys, type RoleListParams } from './keys';

const base = '/api/users/roles/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useRoles(params: RoleListParams, enabled = true) {
  return useQuery({
    queryKey: roleKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<Role>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useRole(id: string | undefined) {
  return useQuery({
    queryKey: roleKeys.detail(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<Role>>(one(id ?? ''))).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

function useInvalidateRoles() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: roleKeys.all }),
      client.invalidateQueries({ queryKey: filterKeys.roles }),
    ]);
}

export function useCreateRole() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: async (form: RoleForm) =>
      expectReply(await api.post<ItemReply<Role>>(base, form)),
    onSuccess: invalidate,
  });
}

export function useUpdateRole(id: string) {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: async (form: RoleForm) =>
      expectReply(await api.put<ItemReply<Role>>(one(id), form)),
    onSuccess: invalidate,
  });
}

export function useDeleteRoles() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: (ids: string[]) => api.del<MessageReply>(base, { role_ids: ids }),
    onSuccess: invalidate,
  });
}
