import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Typography from '@mui/material/Typography';
import type { Machine, SeenEvent } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import { LoadingScreen } from '../../../components/loading-screen';
import { useIntakeAnomalies } from '../api/anomalies';

/** The event's JSON laid out for reading; as sent when it is not JSON. */
function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** One side of a reused id: when it came, and what it said. */
function Side({ title, seen, testId }: { title: string; seen: SeenEvent; testId: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Box data-testid={testId} sx={{ minWidth: 0 }}>
      <Typography variant="subtitle2">{title}</Typography>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 1 }}>
        {seen.received_at ? t('anomalies.receivedAt', { date: formatDateTime(seen.received_at, i18n.language) }) : t('anomalies.unknownTime')}
        {seen.fingerprint ? ` · ${t('anomalies.fingerprint', { value: seen.fingerprint })}` : ''}
      </Typography>
      {seen.payload ? (
        <Box component="pre" data-testid="anomaly-payload" sx={{ m: 0, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', fontSize: 12, overflowX: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {pretty(seen.payload)}
        </Box>
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('anomalies.notKept')}
        </Typography>
      )}
    </Box>
  );
}

/** Events the machine sent with an id it had used before for other content, beside the first. */
export function AnomaliesTab({ machine }: { machine: Machine }) {
  const { t } = useTranslation();
  const anomalies = useIntakeAnomalies(machine.id);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} data-testid="anomalies-tab">
      <Alert severity="info">{t('anomalies.intro')}</Alert>
      {!anomalies.data ? (
        anomalies.isError ? (
          <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => void anomalies.refetch()}>{t('common.retry')}</Button>}>
            {t('errors.listFailed')}
          </Alert>
        ) : (
          <LoadingScreen inline />
        )
      ) : anomalies.data.length === 0 ? (
        <Typography sx={{ py: 6, textAlign: 'center', color: 'text.secondary' }} data-testid="anomalies-empty">
          {t('anomalies.none')}
        </Typography>
      ) : (
        anomalies.data.map((anomaly) => (
          <Card key={`${anomaly.event_id}:${anomaly.second.fingerprint ?? ''}`} data-testid="anomaly">
            <CardHeader title={t('anomalies.event', { id: anomaly.event_id })} />
            <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, px: 3, pb: 3 }}>
              <Side title={t('anomalies.first')} seen={anomaly.first} testId="anomaly-first" />
              <Side title={t('anomalies.second')} seen={anomaly.second} testId="anomaly-second" />
            </Box>
          </Card>
        ))
      )}
    </Box>
  );
}
