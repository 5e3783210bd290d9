import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DataSource } from '../../../api/types';
import { formatCount, formatDateTime, formatRelativeTime } from '../../../components/format';
import { healthState } from '../data-sources-logic';

/** A label and its value on one line (the value under it when the line is too narrow). */
function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', columnGap: 2, py: 0.5 }} data-testid={testId}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ textAlign: 'right', fontWeight: 600 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** An instant as "5 minutes ago", with its date and time beside it. */
function When({ at }: { at: string }) {
  const { i18n } = useTranslation();
  return (
    <>
      <time dateTime={at}>{formatRelativeTime(at, i18n.language)}</time>
      <Typography variant="caption" component="span" sx={{ display: 'block', color: 'text.secondary', fontWeight: 400 }}>
        {formatDateTime(at, i18n.language)}
      </Typography>
    </>
  );
}

/** One of today's counts: its figure over its label, coloured when it asks for a look. */
function Count({ label, value, tone, testId }: { label: string; value: number; tone?: 'warning' | 'error'; testId: string }) {
  const { i18n } = useTranslation();
  return (
    <Box data-testid={testId} sx={{ minWidth: 0 }}>
      <Typography variant="h6" component="p" sx={{ color: value > 0 && tone ? `${tone}.main` : 'text.primary' }}>
        {formatCount(value, i18n.language)}
      </Typography>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
    </Box>
  );
}

/**
 * How a source fares: when its last message came, today's counts (booked, kept for the inbox,
 * ignored, failed), its oldest kept message, its secrets (stored or not), and its last error.
 */
export function SourceHealth({ source }: { source: DataSource }) {
  const { t, i18n } = useTranslation();
  const health = source.health;
  const failing = healthState(source) === 'failing';
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box>
        <Typography variant="overline" component="h3" sx={{ color: 'text.secondary' }}>
          {t('dataSources.today')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' } }}>
          <Count label={t('dataSources.booked')} value={health.booked_today} testId="source-booked" />
          <Count label={t('dataSources.kept')} value={health.kept_today} tone="warning" testId="source-kept" />
          <Count label={t('dataSources.ignored')} value={health.ignored_today} testId="source-ignored" />
          <Count label={t('dataSources.failed')} value={health.failed_today} tone="error" testId="source-failed" />
        </Box>
      </Box>
      <Box>
        <Fact label={t('dataSources.lastMessage')} testId="source-last-message">
          {health.last_message_at ? <When at={health.last_message_at} /> : t('dataSources.never')}
        </Fact>
        <Fact label={t('dataSources.oldestUnbooked')} testId="source-oldest-unbooked">
          {health.oldest_unbooked ? <When at={health.oldest_unbooked} /> : t('dataSources.noneKept')}
        </Fact>
        <Fact label={t('dataSources.secretAccessKey')} testId="source-secret-state">
          {source.has_secret_access_key ? t('dataSources.set') : t('dataSources.notSet')}
        </Fact>
        <Fact label={t('dataSources.encryptionKey')} testId="source-key-state">
          {source.has_encryption_key
            ? source.encryption_key_version == null
              ? t('dataSources.set')
              : t('dataSources.keyVersion', { version: source.encryption_key_version })
            : t('dataSources.notSet')}
        </Fact>
      </Box>
      {health.last_error ? (
        <Alert severity={failing ? 'error' : 'warning'} data-testid="source-last-error" sx={{ overflowWrap: 'anywhere' }}>
          <AlertTitle>
            {health.last_error_at
              ? t('dataSources.lastErrorAt', { at: `${formatRelativeTime(health.last_error_at, i18n.language)} (${formatDateTime(health.last_error_at, i18n.language)})` })
              : t('dataSources.lastError')}
          </AlertTitle>
          {health.last_error}
        </Alert>
      ) : null}
    </Box>
  );
}
