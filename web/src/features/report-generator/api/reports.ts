import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { saveDownload } from '../../../api/download';
import { expectData, expectList, expectReply } from '../../../api/replies';
import type { ItemReply, ListReply, Report, ReportPreview } from '../../../api/types';
import { pollInterval, type GenerateInput } from '../report-logic';
import { generatorKeys, type ReportListParams } from './keys';

const base = '/api/reports/generator/';

/**
 * One page of the reports (active or archived). While one of them is queued or running the list
 * asks again every 2 s, so its progress moves on screen; it stops once none is.
 */
export function useReports(params: ReportListParams, enabled = true) {
  return useQuery({
    queryKey: generatorKeys.reportList(params),
    queryFn: async () => expectList(await api.get<ListReply<Report>>(`${base}reports/`, { query: { ...params } })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollInterval(query.state.data?.data),
    enabled,
  });
}

/** Queues a report of the form's definition (202); the reports list follows it. */
export function useGenerateReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: GenerateInput) => expectReply(await api.post<ItemReply<Report>>(`${base}generate/`, input)),
    onSuccess: () => client.invalidateQueries({ queryKey: generatorKeys.reports }),
  });
}

/** Archives a finished report, or brings an archived one back (409 while it is prepared). */
export function useChangeReportStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: 'archived' | 'active' }) =>
      expectReply(await api.post<ItemReply<Report>>(`${base}reports/${encodeURIComponent(id)}/change-status/`, { status })),
    onSuccess: () => client.invalidateQueries({ queryKey: generatorKeys.reports }),
  });
}

export function useDeleteReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<null>(`${base}reports/${encodeURIComponent(id)}/`),
    onSuccess: () => client.invalidateQueries({ queryKey: generatorKeys.reports }),
  });
}

/**
 * Saves a finished report's file. The request carries the token (the export may redirect to a
 * signed link, which fetch follows); the server's file name wins over the report's.
 */
export async function downloadReport(report: Pick<Report, 'id' | 'file_name'>): Promise<void> {
  const reply = await api.download(`${base}${encodeURIComponent(report.id)}/export/`);
  saveDownload(reply, report.file_name);
}

/**
 * The first rows of a definition, as the file would hold them. `input` null: nothing to ask yet.
 * A refused definition (400) is the screen's to explain, not a toast.
 */
export function usePreview(input: GenerateInput | null) {
  return useQuery({
    queryKey: generatorKeys.preview(input),
    queryFn: async () => expectData(await api.post<{ data: ReportPreview }>(`${base}preview/`, input)),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { silent: true },
  });
}
