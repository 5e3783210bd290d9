import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../components/format';
import { Page } from '../../../components/page';
import { paths } from '../../../routes/paths';
import { Busy, Section, SyncChip, TOUCH } from '../components/parts';
import type { OutboxItem } from '../outbox-item';
import { useOutbox } from '../use-outbox';

function kindOf(item: OutboxItem): 'visit' | 'not_serviced' | 'audit' {
  if (item.kind === 'audit') return 'audit';
  return typeof item.body.not_serviced === 'string' ? 'not_serviced' : 'visit';
}

function QueueItem({ item, onDiscard }: { item: OutboxItem; onDiscard: (item: OutboxItem) => void }) {
  const { t, i18n } = useTranslation();
  const { outbox } = useOutbox();
  const reasons = Object.entries(item.refusal?.errors ?? {}).flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`));
  return (
    <Card component="li" variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, borderWidth: item.status === 'refused' ? 2 : 1, borderColor: item.status === 'refused' ? 'error.main' : 'divider' }} data-testid="queue-item" data-status={item.status} data-machine={item.machineId} data-request-id={item.requestId}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t(`myDay.kinds.${kindOf(item)}`)} · {item.label}
        </Typography>
        <SyncChip status={item.status} />
      </Box>
      <Typography sx={{ color: 'text.secondary' }}>{t('myDay.bookedAt', { time: formatDateTime(new Date(item.createdAt).toISOString(), i18n.language) })}</Typography>
      {item.status !== 'sent' && item.attempts > 0 && item.lastError ? <Typography>{t('myDay.attempts', { count: item.attempts, error: item.lastError })}</Typography> : null}
      {item.waitingForSignIn && item.status !== 'sent' ? <Typography>{t('myDay.waitingForSignIn')}</Typography> : null}
      {item.status === 'sent' && item.replayed ? <Typography>{t('myDay.replayed')}</Typography> : null}
      {item.status === 'refused' && item.refusal ? (
        <>
          <Alert severity="error" data-testid="queue-refusal">
            {t('myDay.serverSays', { message: item.refusal.message })}
            {reasons.length > 0 ? (
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </Box>
            ) : null}
          </Alert>
          <Box sx={{ display: 'grid', gridTemplateColumns: item.kind === 'visit' ? '1fr 1fr 1fr' : '1fr 1fr', gap: 1 }}>
            {item.kind === 'visit' ? (
              <Button component={RouterLink} to={`${paths.myDay.stop(item.routeId, item.machineId)}?fix=${encodeURIComponent(item.id)}`} variant="contained" sx={TOUCH} data-testid="queue-fix">
                {t('myDay.fix')}
              </Button>
            ) : null}
            <Button variant="outlined" onClick={() => void outbox.resend(item.id)} sx={TOUCH} data-testid="queue-resend">
              {t('myDay.resend')}
            </Button>
            <Button variant="outlined" color="inherit" onClick={() => onDiscard(item)} sx={TOUCH} data-testid="queue-discard">
              {t('myDay.discard')}
            </Button>
          </Box>
        </>
      ) : null}
    </Card>
  );
}

/** `/my-day/queue`: every booking on the phone with its sync status; refused ones to fix or discard. */
export default function QueuePage() {
  const { t } = useTranslation();
  const { outbox, items, ready } = useOutbox();
  const [discarding, setDiscarding] = useState<OutboxItem | null>(null);
  // What needs the refiller first, then the rest as booked.
  const ordered = [...items.filter((item) => item.status === 'refused'), ...items.filter((item) => item.status !== 'refused')];
  return (
    <Page title={t('myDay.queue')}>
      <Section title={t('myDay.queue')} testId="my-queue">
        <Typography sx={{ color: 'text.secondary' }}>{t('myDay.queueIntro')}</Typography>
        <Button variant="contained" onClick={() => void outbox.flush()} sx={TOUCH} data-testid="queue-send-now">
          {t('myDay.sendNow')}
        </Button>
        {ready ? null : <Busy />}
        {ready && items.length === 0 ? <Typography sx={{ fontSize: '1.1rem' }}>{t('myDay.queueEmpty')}</Typography> : null}
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          {ordered.map((item) => (
            <QueueItem key={item.id} item={item} onDiscard={setDiscarding} />
          ))}
        </Box>
      </Section>
      <ConfirmDialog
        open={Boolean(discarding)}
        title={t('myDay.discardTitle')}
        content={t('myDay.discardText', { machine: discarding?.label ?? '' })}
        confirmLabel={t('myDay.discard')}
        onConfirm={() => {
          if (discarding) void outbox.discard(discarding.id);
          setDiscarding(null);
        }}
        onClose={() => setDiscarding(null)}
      />
    </Page>
  );
}
