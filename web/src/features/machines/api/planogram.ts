import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectReply } from '../../../api/replies';
import type { MessageReply, Selection, SelectionForm } from '../../../api/types';
import { machineKeys } from './keys';
import { useInvalidateMachines } from './machines';

const base = '/api/machines/';

/** The planogram of a machine, in selection order. */
export function usePlanogram(machineId: string) {
  return useQuery({
    queryKey: machineKeys.products(machineId),
    queryFn: async () => (await api.get<{ data: Selection[] }>(`${base}${encodeURIComponent(machineId)}/products/`)).data ?? [],
    staleTime: 0,
  });
}

/** Adds or changes one selection. */
export function useSaveSelection() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async (form: SelectionForm) =>
      expectReply(await api.post<{ message: string; data: Selection }>(`${base}products/`, form)).data,
    onSuccess: invalidate,
  });
}

export function useDeleteSelections() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: (body: { machine_id: string; selections: string[] }) => api.post<MessageReply>(`${base}products/delete/`, body),
    onSuccess: invalidate,
  });
}

/** Fills (to max) or empties selections; none named = all. Every change goes to the refill log. */
export function useRestock() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async ({ fill, ...body }: { fill: boolean; machine_id: string; selections: string[] }) =>
      expectReply(await api.post<{ message: string; data: Selection[] }>(`${base}${fill ? 'fill-stock' : 'empty-stock'}/`, body)),
    onSuccess: invalidate,
  });
}

/** Quantity and expiry of one selection only (the edit-quantity-and-expiry permission). */
export function useSetStock() {
  const invalidate = useInvalidateMachines();
  return useMutation({
    mutationFn: async ({ machineId, selection, current, expiry_date }: { machineId: string; selection: string; current: number; expiry_date: string | null }) =>
      expectReply(
        await api.put<{ message: string; data: Selection }>(
          `${base}${encodeURIComponent(machineId)}/products/${encodeURIComponent(selection)}/stock/`,
          { current, expiry_date },
        ),
      ).data,
    onSuccess: invalidate,
  });
}
