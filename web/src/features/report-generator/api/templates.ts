import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectItem, expectReply } from '../../../api/replies';
import type { CopyTemplateForm, ItemReply, Report, ReportTemplate, ReportTemplateForm } from '../../../api/types';
import { generatorKeys } from './keys';

const base = '/api/reports/generator/templates/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

export function useTemplate(id: string | undefined) {
  return useQuery({
    queryKey: generatorKeys.template(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<ReportTemplate>>(one(id ?? ''))).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

function useInvalidateTemplates() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: generatorKeys.templates });
}

export function useCreateTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async (input: ReportTemplateForm) => expectReply(await api.post<ItemReply<ReportTemplate>>(base, input)),
    onSuccess: invalidate,
  });
}

/** `input.version`: the version read; a 409 says someone changed it since. */
export function useUpdateTemplate(id: string) {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async (input: ReportTemplateForm) => expectReply(await api.put<ItemReply<ReportTemplate>>(one(id), input)),
    onSuccess: invalidate,
  });
}

export function useDeleteTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (id: string) => api.del<null>(one(id)),
    onSuccess: invalidate,
  });
}

/**
 * Copies a template the caller sees into a private one of their own ("save as"): the way to change
 * another user's template (201 with the copy).
 */
export function useCopyTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async ({ id, input }: { id: string; input: CopyTemplateForm }) =>
      expectItem(await api.post<ItemReply<ReportTemplate>>(`${one(id)}copy/`, input)),
    onSuccess: invalidate,
  });
}

/** Runs a template: the server queues a report (202) that the reports list then follows. */
export function useRunTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => expectReply(await api.post<ItemReply<Report>>(`${one(id)}generate/`, {})),
    onSuccess: () => client.invalidateQueries({ queryKey: generatorKeys.reports }),
  });
}
