// The small pieces every screen of the refiller's app shows: the network's state, the offline
// copy's age, a booking's sync status and the link to the phone's map app.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { formatClock } from '../../../components/format';
import type { OutboxStatus } from '../outbox-item';

/** A stop's directions in the phone's map app (a link only: nothing is fetched). */
export function mapsUrl(latitude: number, longitude: number): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${latitude},${longitude}`;
}

/** "Offline — showing the copy from 09:12" when the screen shows what the phone kept. */
export function OfflineCopy({ offline, savedAt }: { offline: boolean; savedAt: number }) {
  const { t, i18n } = useTranslation();
  if (!offline) return null;
  return (
    <Alert severity="warning" data-testid="offline-copy" sx={{ fontSize: '1rem' }}>
      {t('myDay.offlineCopy', { time: formatClock(new Date(savedAt).toISOString(), i18n.language) })}
    </Alert>
  );
}

const SYNC_COLOURS: Record<OutboxStatus, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  sending: 'info',
  sent: 'success',
  refused: 'error',
};

/** A booking's sync status: queued, sending, sent or needs attention. */
export function SyncChip({ status }: { status: OutboxStatus }) {
  const { t } = useTranslation();
  return <Chip label={t(`myDay.sync.${status}`)} color={SYNC_COLOURS[status]} variant={status === 'queued' ? 'outlined' : 'filled'} data-testid="sync-status" data-status={status} sx={{ fontWeight: 700 }} />;
}

/** A section of a phone screen: a heading and its content. */
export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Box component="section" data-testid={testId} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Box>
  );
}

export function Busy() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-busy />
    </Box>
  );
}

/** Touch targets of a phone (48 px at least) and a larger text. */
export const TOUCH = { minHeight: 48, fontSize: '1rem' } as const;
