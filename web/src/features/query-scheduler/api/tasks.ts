import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectData, expectItem, expectList, expectReply } from '../../../api/replies';
import type { Cron, ItemReply, ListReply, NextRuns, Report, Task, TaskForm, TaskStatus } from '../../../api/types';
import { schedulerKeys, type TaskListParams } from './keys';

const base = '/api/query-schedulers/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useTasks(params: TaskListParams) {
  return useQuery({
    queryKey: schedulerKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<Task>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
  });
}

export function useTask(id: string | undefined) {
  return useQuery({
    queryKey: schedulerKeys.detail(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<Task>>(one(id ?? ''))).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

function useInvalidateTasks() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: schedulerKeys.all });
}

export function useCreateTask() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: async (input: TaskForm) => expectReply(await api.post<ItemReply<Task>>(base, input)),
    onSuccess: invalidate,
  });
}

/** `input.version`: the version read; a 409 says someone changed it since. */
export function useUpdateTask(id: string) {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: async (input: TaskForm) => expectReply(await api.put<ItemReply<Task>>(one(id), input)),
    onSuccess: invalidate,
  });
}

export function useDeleteTask() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (id: string) => api.del<null>(one(id)),
    onSuccess: invalidate,
  });
}

/** Pauses a query (no next run) or resumes it. */
export function useChangeTaskStatus() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: TaskStatus }) =>
      expectReply(await api.post<ItemReply<Task>>(`${one(id)}change-status/`, { status })),
    onSuccess: invalidate,
  });
}

/** Runs a query now and e-mails its recipients (202 with the report being made). */
export function useSendNow() {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: async (id: string) => expectReply(await api.post<ItemReply<Report>>(`${one(id)}send-now/`, {})),
    onSuccess: invalidate,
  });
}

/**
 * The next five runs of a schedule in a zone, and the schedule as EventBridge writes it. A 400
 * names the fields it refuses: the form shows them, so it is no toast. `enabled` false while a
 * field is empty.
 */
export function useNextRuns(cron: Cron, timeZone: string, enabled: boolean) {
  return useQuery({
    queryKey: schedulerKeys.nextRuns(cron, timeZone),
    queryFn: async () =>
      expectData(await api.get<{ data: NextRuns }>(`${base}next-runs/`, { query: { ...cron, time_zone: timeZone, count: 5 } })),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    meta: { silent: true },
  });
}
