import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { isApiError } from '../../../api/client';
import type { HistoryImport } from '../../../api/types';
import { UploadStopped, useUploadImport, type UploadRequest } from '../api/imports';
import { formatMegabytes, partCount, PART_BYTES } from '../import-logic';
import { NamedProgress } from './import-parts';

interface Sending {
  file: string;
  sent: number;
  total: number;
}

/** Where a stopped or failed upload can go on from, the file still at hand. */
interface Resumable {
  file: File;
  id: string;
  from: number;
}

interface Failure {
  file: string;
  /** Stopped on purpose, or the server's (or the connection's) reason. */
  stopped: boolean;
  message: string | null;
}

export interface Uploader {
  /** The upload under way. */
  sending: Sending | null;
  failure: Failure | null;
  /** A failed upload can go on from where it stopped. */
  resumable: boolean;
  busy: boolean;
  /** Uploads a file into a new import read this way, or goes on with an unfinished one; then asks for its preview. True once it is being read. */
  run: (file: File, start: UploadRequest['start']) => Promise<boolean>;
  retry: () => void;
  stop: () => void;
  dismiss: () => void;
}

/**
 * The one upload of the screen: creates the import, sends its parts in order with the bytes sent so
 * far, asks for the preview and tells `onPreviewing`. A failed or stopped one keeps the file, to go
 * on from the next part; leaving the screen stops it.
 */
export function useUploader(onPreviewing: (item: HistoryImport) => void): Uploader {
  const upload = useUploadImport();
  const [sending, setSending] = useState<Sending | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [resumable, setResumable] = useState<Resumable | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run: Uploader['run'] = async (file, start) => {
    const abort = new AbortController();
    controller.current = abort;
    setFailure(null);
    setResumable(null);
    setSending({ file: file.name, sent: 0, total: file.size });
    /** What the server has: the import and its parts. */
    let at: Resumable | null = 'id' in start ? { file, id: start.id, from: start.from } : null;
    try {
      const item = await upload.mutateAsync({
        file,
        start,
        signal: abort.signal,
        onCreated: (created) => {
          at = { file, id: created.id, from: 0 };
        },
        onProgress: (sent) => {
          if (at) at = { ...at, from: Math.min(partCount(file.size), Math.ceil(sent / PART_BYTES)) };
          setSending({ file: file.name, sent, total: file.size });
        },
      });
      onPreviewing(item);
      return true;
    } catch (error) {
      const stopped = error instanceof UploadStopped;
      setFailure({ file: file.name, stopped, message: stopped ? null : isApiError(error) && error.status !== 0 ? error.message : null });
      setResumable(at);
      return false;
    } finally {
      if (controller.current === abort) controller.current = null;
      setSending(null);
    }
  };

  return {
    sending,
    failure,
    resumable: resumable !== null,
    busy: sending !== null,
    run,
    retry: () => {
      if (resumable) void run(resumable.file, { id: resumable.id, from: resumable.from });
    },
    stop: () => controller.current?.abort(),
    dismiss: () => {
      setFailure(null);
      setResumable(null);
    },
  };
}

/** The upload under way (its bar, named, and Stop), or how the last one ended when it did not. */
export function UploadStatus({ uploader }: { uploader: Uploader }) {
  const { t, i18n } = useTranslation();
  const { sending, failure } = uploader;
  if (sending) {
    const percent = sending.total > 0 ? Math.floor((sending.sent / sending.total) * 100) : 0;
    return (
      <Card data-testid="upload-progress" aria-live="polite">
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="upload-progress-text">
            {t('dataSources.imports.uploading', {
              file: sending.file,
              sent: formatMegabytes(sending.sent, i18n.language),
              total: formatMegabytes(sending.total, i18n.language),
            })}
          </Typography>
          <NamedProgress value={percent} label={t('dataSources.imports.uploadProgress', { file: sending.file })} text={t('dataSources.imports.percent', { progress: percent })} />
          <Box>
            <Button variant="outlined" color="inherit" size="small" onClick={uploader.stop} data-testid="upload-stop">
              {t('dataSources.imports.stop')}
            </Button>
          </Box>
        </CardContent>
      </Card>
    );
  }
  if (!failure) return null;
  return (
    <Alert
      severity={failure.stopped ? 'info' : 'error'}
      data-testid="upload-failure"
      sx={{ overflowWrap: 'anywhere', '& .MuiAlert-action': { flexWrap: 'wrap', alignItems: 'flex-start' } }}
      action={
        <>
          {uploader.resumable ? (
            <Button color="inherit" size="small" onClick={uploader.retry} data-testid="upload-retry">
              {t('dataSources.imports.tryAgain')}
            </Button>
          ) : null}
          <Button color="inherit" size="small" onClick={uploader.dismiss}>
            {t('dataSources.imports.dismiss')}
          </Button>
        </>
      }
    >
      {failure.stopped
        ? t('dataSources.imports.stopped', { file: failure.file })
        : t('dataSources.imports.uploadFailed', { file: failure.file, message: failure.message ?? t('dataSources.imports.connectionLost') })}
    </Alert>
  );
}
