import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectData } from '../../../api/replies';
import type { InboxGroup, RetakeForm, Retaken } from '../../../api/types';
import { dataSourceKeys } from './keys';

const inboxPath = '/api/settings/data-sources/inbox/';

/** The messages kept unbooked, grouped alike, the latest seen first. */
export function useInbox(enabled = true) {
  return useQuery({
    queryKey: dataSourceKeys.inbox,
    queryFn: async () => expectData(await api.get<{ data: InboxGroup[] }>(inboxPath)),
    enabled,
    staleTime: 0,
    meta: { silent: true },
  });
}

/**
 * Takes kept messages again — those of one Nayax machine id, or all of them (`{}`): each is booked
 * once, ignored, or kept again with its reason now. The inbox and the sources' counts change.
 */
export function useRetake() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (form: RetakeForm) => expectData(await api.post<{ data: Retaken }>(`${inboxPath}retake/`, form)),
    onSettled: () => client.invalidateQueries({ queryKey: dataSourceKeys.all }),
  });
}
