import { api, ApiError, resolveApiUrl, type Download, type Query } from './client';
import { expectItem } from './replies';
import type { ItemReply, Job } from './types';

/** Hands a fetched file to the browser as a download through a short-lived blob URL. */
export function saveDownload({ blob, filename }: Download, fallbackName: string): void {
  const url = URL.createObjectURL(blob);
  clickLink(url, filename ?? fallbackName);
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function clickLink(href: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * Downloads a file the server prepared (a finished export job's `download_url`): a signed path on
 * the API's server or an absolute presigned URL. No token is sent: the link itself is the grant.
 */
export function openDownload(url: string, fileName: string): void {
  clickLink(resolveApiUrl(url), fileName);
}

/** The `{message, code, data}` of a 202 export reply. */
export interface QueuedExportReply {
  message?: string;
  code?: string;
  data: Job;
}

/** What an export request ended with: the file is saved, or the server queued a job to follow. */
export type ExportOutcome = { kind: 'saved' } | { kind: 'queued'; job: Job; reply: QueuedExportReply };

function isJob(value: unknown): value is Job {
  if (!value || typeof value !== 'object') return false;
  const job = value as Partial<Job>;
  return typeof job.id === 'string' && typeof job.status === 'string' && typeof job.file_name === 'string';
}

/**
 * Asks for an export. A small table answers the file (200), saved at once under the server's name
 * (or `fallbackName`); a large one answers 202 with the job that prepares it, for the caller to
 * follow (see `components/export-jobs.tsx`).
 */
export async function requestExport(path: string, query: Query, fallbackName: string): Promise<ExportOutcome> {
  const reply = await api.download(path, query);
  if (reply.status === 202) {
    const text = await reply.blob.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const data = (body as { data?: unknown } | null)?.data;
    if (!isJob(data)) throw new ApiError(0, 'Unexpected reply from the server');
    return { kind: 'queued', job: data, reply: body as QueuedExportReply };
  }
  saveDownload(reply, fallbackName);
  return { kind: 'saved' };
}

export const jobKeys = {
  one: (id: string) => ['jobs', id] as const,
};

/** One of the caller's background jobs. */
export async function fetchJob(id: string): Promise<Job> {
  const reply = expectItem(await api.get<ItemReply<Job>>(`/api/jobs/${encodeURIComponent(id)}/`));
  return reply.data;
}
