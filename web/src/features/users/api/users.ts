import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { expectItem, expectList, expectReply } from '../../../api/replies';
import type { ItemReply, ListReply, MessageReply, User, UserForm } from '../../../api/types';
import { filterKeys, roleKeys, userKeys, type UserListParams } from './keys';

const base = '/api/users/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useUsers(params: UserListParams, enabled = true) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<User>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useUser(id: string | undefined) {
  return useQuery({
    queryKey: userKeys.detail(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<User>>(one(id ?? ''))).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

function useInvalidateUsers() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: userKeys.all }),
      // Role lists show how many users each role has.
      client.invalidateQueries({ queryKey: roleKeys.all }),
      client.invalidateQueries({ queryKey: filterKeys.all }),
    ]);
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (form: UserForm) => expectReply(await api.post<ItemReply<User>>(base, form)),
    onSuccess: invalidate,
  });
}

export function useUpdateUser(id: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (form: UserForm) => expectReply(await api.put<ItemReply<User>>(one(id), form)),
    onSuccess: invalidate,
  });
}

export function useDeleteUsers() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (ids: string[]) => api.del<MessageReply>(base, { user_ids: ids }),
    onSuccess: invalidate,
  });
}

export function useSetUserActive() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      api.post<ItemReply<User>>(`${one(id)}active/`, { active }),
    onSuccess: invalidate,
  });
}

export type ExportFormat = 'csv' | 'xlsx';

/** Downloads the users list (same filters as on screen) as CSV or Excel; a large one is queued as a job (see `requestExport`). */
export async function exportUsers(format: ExportFormat, filters: Omit<UserListParams, 'page' | 'page_size'>) {
  return requestExport(`${base}export/`, { format, ...filters }, `users.${format}`);
}
