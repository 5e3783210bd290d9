// Large exports run as background jobs on the server (a 202 reply to an export). Each one is
// followed here: a persistent snackbar shows its progress, `ExportJobs` (mounted once in the app)
// polls `GET /api/jobs/{id}/` about every second, and when the file is ready it is downloaded and
// a notice offers the link again. Several jobs can run at once; each has its own snackbar.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { closeSnackbar, enqueueSnackbar, type SnackbarKey } from 'notistack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { isApiError, resolveApiUrl } from '../api/client';
import { fetchJob, jobKeys, openDownload, type QueuedExportReply } from '../api/download';
import type { Job } from '../api/types';
import i18n from '../locales/i18n';
import { replyMessage } from './server-list/reply-message';

/** How often a running job is asked about. */
export const JOB_POLL_MS = 1000;
/** Failed polls in a row (network, 5xx) before a job is given up. */
const MAX_POLL_FAILURES = 10;

interface TrackedJob {
  job: Job;
  /** The server's "Export queued" reply, in the user's language. */
  queuedText?: string;
}

// The jobs being followed, as an external store: immutable entries, replaced on each change.
const tracked = new Map<string, TrackedJob>();
let snapshot: TrackedJob[] = [];
const listeners = new Set<() => void>();

function emit(): void {
  snapshot = [...tracked.values()];
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const progressKey = (id: string): SnackbarKey => `export-job-${id}`;

function clampProgress(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0;
}

function closeAction(key: SnackbarKey) {
  return (
    <IconButton size="small" color="inherit" aria-label="close" onClick={() => closeSnackbar(key)}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
}

/** The progress snackbar's content: it follows its job in the store. */
function ProgressNotice({ id }: { id: string }) {
  const { t, i18n: current } = useTranslation();
  const entry = useSyncExternalStore(subscribe, () => tracked.get(id));
  if (!entry) return null;
  const { job } = entry;
  const progress = clampProgress(job.progress);
  const rows = t('exports.rows', { count: job.total, rows: new Intl.NumberFormat(current.language).format(job.total) });
  const detail = job.status === 'queued' && entry.queuedText ? `${entry.queuedText} · ${rows}` : rows;
  return (
    <Box sx={{ minWidth: 260 }} data-testid="export-job" data-status={job.status}>
      <Typography variant="body2">{t('exports.preparing', { file: job.file_name, progress })}</Typography>
      <LinearProgress
        color="inherit"
        variant={job.status === 'queued' ? 'indeterminate' : 'determinate'}
        value={progress}
        aria-label={t('exports.progress', { file: job.file_name })}
        sx={{ my: 0.75, borderRadius: 1 }}
      />
      <Typography variant="caption">{detail}</Typography>
    </Box>
  );
}

/** The notice of a ready file, with its link again in case the browser blocked the download. */
function readyAction(job: Job, url: string) {
  return (key: SnackbarKey) => (
    <>
      <Button
        color="inherit"
        size="small"
        component="a"
        href={resolveApiUrl(url)}
        download={job.file_name}
        rel="noopener"
        data-testid="export-job-link"
      >
        {i18n.t('exports.download')}
      </Button>
      {closeAction(key)}
    </>
  );
}

function finish(id: string): TrackedJob | undefined {
  const entry = tracked.get(id);
  if (!entry) return undefined;
  tracked.delete(id);
  closeSnackbar(progressKey(id));
  emit();
  return entry;
}

function fail(id: string, fileName: string, error: string | null | undefined): void {
  if (!finish(id)) return;
  const reason = error?.trim() || i18n.t('errors.generic');
  enqueueSnackbar(i18n.t('exports.failed', { file: fileName, error: reason }), {
    variant: 'error',
    persist: true,
    action: closeAction,
  });
}

/** Takes a job's latest state: progress, or the download and notice when it is over. */
export function updateExportJob(job: Job): void {
  const entry = tracked.get(job.id);
  if (!entry) return;
  if (job.status === 'done' && job.download_url) {
    finish(job.id);
    const url = job.download_url;
    openDownload(url, job.file_name);
    enqueueSnackbar(i18n.t('exports.ready', { file: job.file_name }), {
      variant: 'success',
      persist: true,
      action: readyAction(job, url),
    });
  } else if (job.status === 'failed' || job.status === 'done') {
    fail(job.id, job.file_name, job.error);
  } else {
    tracked.set(job.id, { ...entry, job });
    emit();
  }
}

/** Starts following a job the server queued for an export (the 202 reply). */
export function trackExportJob(job: Job, reply?: QueuedExportReply): void {
  if (tracked.has(job.id)) return;
  tracked.set(job.id, { job, queuedText: replyMessage(reply) });
  emit();
  enqueueSnackbar(<ProgressNotice id={job.id} />, { key: progressKey(job.id), variant: 'info', persist: true });
  if (job.status === 'done' || job.status === 'failed') updateExportJob(job);
}

/** Stops following every job (the session ended). */
export function clearExportJobs(): void {
  for (const id of [...tracked.keys()]) closeSnackbar(progressKey(id));
  tracked.clear();
  emit();
}

/** Whether a failed poll will not get better by asking again. */
function isFinalError(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

function JobPoller({ job }: { job: Job }) {
  const { id } = job;
  const query = useQuery({
    queryKey: jobKeys.one(id),
    queryFn: () => fetchJob(id),
    refetchInterval: (current) => (isFinalError(current.state.error) ? false : JOB_POLL_MS),
    refetchIntervalInBackground: true,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    meta: { silent: true },
  });
  const failures = useRef(0);

  useEffect(() => {
    if (!query.data) return;
    failures.current = 0;
    updateExportJob(query.data);
  }, [query.data, query.dataUpdatedAt]);

  useEffect(() => {
    const error = query.error;
    if (!error) return;
    failures.current += 1;
    if (isApiError(error) && error.status === 401) {
      // The session is gone; signing out clears the jobs.
      return;
    }
    if (isFinalError(error) || failures.current >= MAX_POLL_FAILURES) fail(id, job.file_name, error.message);
  }, [query.error, query.errorUpdatedAt, id, job.file_name]);

  return null;
}

/** Polls every followed job while mounted (once, inside the query client and snackbar providers). */
export function ExportJobs() {
  const jobs = useSyncExternalStore(subscribe, () => snapshot);
  return (
    <>
      {jobs.map((entry) => (
        <JobPoller key={entry.job.id} job={entry.job} />
      ))}
    </>
  );
}
