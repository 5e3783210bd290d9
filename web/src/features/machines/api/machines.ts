import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { expectItem, expectList, expectReply } from '../../../api/replies';
import type {
  ItemReply,
  ListReply,
  Machine,
  MachineForm,
  MachineOverview,
  MachineTag,
  MessageReply,
  Refill,
} from '../../../api/types';
import { machineFilterKeys, machineKeys, refillKeys, type MachineListParams, type RefillListParams } from './keys';

const base = '/api/machines/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useMachines(params: MachineListParams, enabled = true) {
  return useQuery({
    queryKey: machineKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<Machine>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useMachine(id: string | undefined) {
  return useQuery({
    queryKey: machineKeys.detail(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<Machine>>(`${one(id ?? '')}details/`)).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

export function useMachineOverview(id: string) {
  return useQuery({
    queryKey: machineKeys.overview(id),
    queryFn: async () => (await api.get<{ data: MachineOverview }>(`${one(id)}dashboard/overview/`)).data,
    staleTime: 0,
  });
}

/** Refreshes machines, their tags and every filter list naming them. */
export function useInvalidateMachines() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: machineKeys.all }),
      client.invalidateQueries({ queryKey: refillKeys.all }),
      client.invalidateQueries({ queryKey: machineFilterKeys.all }),
    ]);
}

export function useCreateMachine() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async (form: MachineForm) =>
      expectItem(expectReply(await api.post<ItemReply<Machine>>(base, form))).data,
    onSuccess: invalidate,
  });
}

export function useUpdateMachine(id: string) {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async (form: MachineForm) =>
      expectItem(expectReply(await api.put<ItemReply<Machine>>(`${one(id)}settings/`, form))).data,
    onSuccess: invalidate,
  });
}

export function useDeleteMachine() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(one(id)),
    onSuccess: invalidate,
  });
}

/** A new webhook secret; the reply is the only place it is ever shown. */
export function useRotateSecret(id: string) {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async () =>
      expectItem(expectReply(await api.post<ItemReply<Machine>>(`${one(id)}webhook-secret/`, {}))).data,
    onSuccess: invalidate,
  });
}

export type ExportFormat = 'csv' | 'xlsx';

/** Downloads the machines list (same filters as on screen) as CSV or Excel; a large one is queued as a job (see `requestExport`). */
export async function exportMachines(format: ExportFormat, filters: Omit<MachineListParams, 'page' | 'page_size'>) {
  return requestExport(`${base}export/`, { format, ...filters }, `machines.${format}`);
}

// ---------- tags ----------

export function useMachineTags(enabled = true) {
  return useQuery({
    queryKey: machineKeys.tags,
    queryFn: async () => expectList(await api.get<ListReply<MachineTag>>(`${base}tags/`)),
    enabled,
  });
}

export function useCreateMachineTag() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async (name: string) =>
      expectReply(await api.post<ItemReply<MachineTag>>(`${base}tags/`, { name })),
    onSuccess: invalidate,
  });
}

export function useDeleteMachineTag() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(`${base}tags/${encodeURIComponent(id)}/`),
    onSuccess: invalidate,
  });
}

/** Adds and removes tags on several machines, all or nothing. */
export function useManageMachineTags() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async (body: { machine_ids: string[]; add: string[]; remove: string[] }) =>
      expectReply(await api.post<{ message: string; data: Machine[] }>(`${base}tags/manage/`, body)),
    onSuccess: invalidate,
  });
}

/** Copies one machine's planogram onto others, all or nothing. */
export function useCopyProducts() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async (body: { from_machine_id: string; to_machine_ids: string[] }) =>
      expectReply(await api.post<MessageReply>(`${base}copy-products/`, body)),
    onSuccess: invalidate,
  });
}

// ---------- refill log ----------

export function useRefills(params: RefillListParams, enabled = true) {
  return useQuery({
    queryKey: refillKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<Refill>>('/api/refills/', { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
    staleTime: 0,
  });
}
