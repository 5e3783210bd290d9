import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import FileIcon from '@mui/icons-material/AttachFileOutlined';
import { isApiError } from '../../../api/client';
import type { HistoryImport, HistoryImportResult } from '../../../api/types';
import { formatCount, formatDateTime, formatDecimal } from '../../../components/format';
import { LoadingScreen } from '../../../components/loading-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { toast } from '../../../components/snackbar';
import { useBookImport, useHistoryImport } from '../api/imports';
import { ACCEPT, canBook, creatorOf, formatMegabytes, isRunning, resumePart } from '../import-logic';
import { ImportPreview } from './import-preview';
import { Figure, FIGURES_SX, ImportStatusChip, NamedProgress, useReadingName } from './import-parts';
import type { Uploader } from './import-upload';

/** A job at work on the import (reading or booking): how far it is, named, and that it goes on without the screen. */
function JobProgress({ item }: { item: HistoryImport }) {
  const { t } = useTranslation();
  const booking = item.status === 'booking';
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="import-job" aria-live="polite">
      <Typography variant="body2">{t(booking ? 'dataSources.imports.booking' : 'dataSources.imports.previewing', { progress: item.progress })}</Typography>
      <NamedProgress value={item.progress} label={t('dataSources.imports.progressOf', { file: item.file_name })} text={t('dataSources.imports.percent', { progress: item.progress })} />
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {t(booking ? 'dataSources.imports.bookingHint' : 'dataSources.imports.previewingHint')}
      </Typography>
    </Box>
  );
}

/** An upload that did not finish: the same file chosen again goes on from the next part. */
function UnfinishedUpload({ item, uploader }: { item: HistoryImport; uploader: Uploader }) {
  const { t, i18n } = useTranslation();
  const [problem, setProblem] = useState<string | null>(null);
  if (uploader.busy) return <Alert severity="info">{t('dataSources.imports.beingUploaded')}</Alert>;
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    setProblem(null);
    if (!file) return;
    const from = resumePart(item, file);
    if (from === null) return setProblem(t('dataSources.imports.notTheFile', { file: file.name }));
    void uploader.run(file, { id: item.id, from });
  };
  return (
    <Alert severity="warning" data-testid="import-unfinished" sx={{ overflowWrap: 'anywhere' }}>
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {t('dataSources.imports.notFinished', { size: formatMegabytes(item.bytes, i18n.language) })}
      </Typography>
      <Button component="label" variant="outlined" color="inherit" size="small" startIcon={<FileIcon />}>
        {t('dataSources.imports.continueUpload')}
        <input type="file" accept={ACCEPT} hidden onChange={choose} data-testid="import-resume-input" />
      </Button>
      {problem ? (
        <FormHelperText error data-testid="import-resume-problem">
          {problem}
        </FormHelperText>
      ) : null}
    </Alert>
  );
}

/** "Book", held back while rows in error are not skipped on purpose. */
function BookControls({ item }: { item: HistoryImport }) {
  const { t, i18n } = useTranslation();
  const book = useBookImport();
  const [skip, setSkip] = useState(false);
  const bad = item.preview?.bad_rows ?? 0;

  const run = async () => {
    try {
      await book.mutateAsync({ id: item.id, body: { skip_bad_rows: bad > 0 && skip } });
      toast.success(t('dataSources.imports.bookStarted'));
    } catch (error) {
      toast.error(t('dataSources.imports.bookFailed', { message: isApiError(error) && error.status !== 0 ? error.message : t('dataSources.imports.connectionLost') }));
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, alignItems: 'flex-start' }} data-testid="import-book-controls">
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('dataSources.imports.bookHint')}
      </Typography>
      {bad > 0 ? (
        <>
          <Alert severity="warning" sx={{ width: 1 }} data-testid="import-bad-rows-block">
            {t('dataSources.imports.badRowsBlock')}
          </Alert>
          <FormControlLabel
            control={<Checkbox checked={skip} onChange={(event) => setSkip(event.target.checked)} slotProps={{ input: { 'data-testid': 'import-skip-bad-rows' } as object }} />}
            label={t('dataSources.imports.skipBadRows', { count: bad, formatted: formatCount(bad, i18n.language) })}
          />
        </>
      ) : null}
      <Button variant="contained" onClick={() => void run()} disabled={!canBook(item, skip)} loading={book.isPending} data-testid="import-book">
        {t('dataSources.imports.book')}
      </Button>
    </Box>
  );
}

/** What booking did: sales stored, already booked before, skipped, and how long it took. */
function BookedResult({ result }: { result: HistoryImportResult }) {
  const { t, i18n } = useTranslation();
  const count = (value: number) => formatCount(value, i18n.language);
  return (
    <Alert severity="success" data-testid="import-result" sx={{ '& .MuiAlert-message': { width: 1 } }}>
      <AlertTitle>{t('dataSources.imports.resultTitle')}</AlertTitle>
      <Box component="dl" sx={FIGURES_SX}>
        <Figure label={t('dataSources.imports.stored')} testId="result-stored">
          {count(result.stored)}
        </Figure>
        <Figure label={t('dataSources.imports.already')} testId="result-already">
          {count(result.already)}
        </Figure>
        <Figure label={t('dataSources.imports.skipped')} testId="result-skipped">
          {count(result.skipped)}
        </Figure>
        <Figure label={t('dataSources.imports.duration')} testId="result-seconds">
          {t('dataSources.imports.seconds', { value: formatDecimal(result.seconds, i18n.language) })}
        </Figure>
      </Box>
    </Alert>
  );
}

interface Props {
  id: string;
  onClose: () => void;
  uploader: Uploader;
}

/**
 * One import: its file, reading and status; while it is read or booked, how far (read again every
 * 2 s); once read, its preview and "Book"; once booked, the result; failed, the reason.
 */
export function ImportDetail({ id, onClose, uploader }: Props) {
  const { t, i18n } = useTranslation();
  const query = useHistoryImport(id);
  const readingName = useReadingName();
  const item = query.data;

  const close = (
    <Tooltip title={t('dataSources.imports.closeImport')}>
      <IconButton aria-label={t('dataSources.imports.closeImport')} onClick={onClose} data-testid="import-close">
        <CloseIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );

  if (!item) {
    return (
      <Card data-testid="import-detail">
        <CardHeader title={t('dataSources.imports.title')} action={close} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
        <CardContent>
          {query.isError ? (
            <RetryAlert testId="import-detail-error" onRetry={() => void query.refetch()}>
              {isApiError(query.error) && query.error.status === 404 ? t('dataSources.imports.gone') : t('dataSources.imports.detailFailed')}
            </RetryAlert>
          ) : (
            <LoadingScreen inline />
          )}
        </CardContent>
      </Card>
    );
  }

  const subheader = t('dataSources.imports.createdLine', {
    reading: readingName(item),
    size: formatMegabytes(item.bytes, i18n.language),
    name: creatorOf(item),
    at: formatDateTime(item.created_at, i18n.language),
  });

  return (
    <Card component="section" aria-labelledby="import-detail-title" data-testid="import-detail" data-status={item.status} aria-busy={isRunning(item.status)}>
      <CardHeader
        title={item.file_name}
        subheader={subheader}
        action={close}
        slotProps={{ title: { component: 'h2', variant: 'h6', id: 'import-detail-title', sx: { overflowWrap: 'anywhere' } }, subheader: { variant: 'body2', sx: { mt: 0.5 } } }}
      />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 3, pt: 0 }}>
        <Box>
          <ImportStatusChip status={item.status} />
        </Box>
        {item.status === 'uploading' ? <UnfinishedUpload item={item} uploader={uploader} /> : null}
        {isRunning(item.status) ? <JobProgress item={item} /> : null}
        {item.status === 'failed' ? (
          <Alert severity="error" data-testid="import-failure" sx={{ overflowWrap: 'anywhere' }}>
            <AlertTitle>{t('dataSources.imports.failedTitle')}</AlertTitle>
            {item.error || t('dataSources.imports.failedUnknown')}
          </Alert>
        ) : null}
        {item.status === 'booked' && item.result ? <BookedResult result={item.result} /> : null}
        {item.preview ? <ImportPreview preview={item.preview} actions={item.status === 'previewed' ? <BookControls key={item.id} item={item} /> : undefined} /> : null}
      </CardContent>
    </Card>
  );
}
