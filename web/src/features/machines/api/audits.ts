import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectReply } from '../../../api/replies';
import type { AuditRead, AuditUpload } from '../../../api/types';
import { machineKeys } from './keys';

const base = '/api/machines/';
const audits = (machineId: string) => `${base}${encodeURIComponent(machineId)}/audits/`;

/** A review's reply: `{message, code, data}` with the read as it is now. */
export interface AuditReviewReply {
  message: string;
  code?: string;
  data: AuditRead;
}

/** An upload's reply: the reads the file made (none when it was taken in before). */
export interface AuditUploadReply {
  message: string;
  code?: string;
  data: AuditRead[];
}

/** The machine's EVA-DTS audit reads, newest first. */
export function useAudits(machineId: string, enabled = true) {
  return useQuery({
    queryKey: machineKeys.audits(machineId),
    queryFn: async () => (await api.get<{ data: AuditRead[] }>(audits(machineId)))?.data ?? [],
    enabled,
    staleTime: 0,
  });
}

/** Refreshes the reads and the overview (an accepted or new read changes the figures). */
function useInvalidateAudits(machineId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: machineKeys.audits(machineId) }),
      client.invalidateQueries({ queryKey: machineKeys.overview(machineId) }),
    ]);
}

export type AuditDecision = 'accept' | 'reject';

/** Accepts (its sales enter the figures) or rejects (never counted) a held read. */
export function useReviewAudit(machineId: string) {
  const invalidate = useInvalidateAudits(machineId);
  return useMutation({
    mutationFn: async ({ readId, decision }: { readId: string; decision: AuditDecision }) =>
      expectReply(await api.post<AuditReviewReply>(`${audits(machineId)}${encodeURIComponent(readId)}/${decision}/`, {})),
    onSettled: invalidate,
  });
}

/** Takes in an audit file read from the machine by hand. */
export function useUploadAudit(machineId: string) {
  const invalidate = useInvalidateAudits(machineId);
  return useMutation({
    mutationFn: async (content: string) => {
      const body: AuditUpload = { machine_id: machineId, content };
      return expectReply(await api.post<AuditUploadReply>(`${base}eva-dts/read/`, body));
    },
    onSuccess: invalidate,
  });
}
