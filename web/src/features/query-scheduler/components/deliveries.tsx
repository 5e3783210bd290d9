import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { DeliveryStatus, Task } from '../../../api/types';
import { formatInZone } from '../cron-logic';

const COLOR: Record<DeliveryStatus, 'success' | 'warning' | 'error' | 'info'> = {
  sent: 'success',
  refused: 'error',
  bounced: 'warning',
  complained: 'error',
  withheld: 'info',
};

/**
 * The query's last run (with how many files it made: one per distinct reach and language of its
 * recipients) and its latest e-mails (newest first): sent or refused, later bounced or complained
 * (spam) as SES reports, or withheld from a recipient who may not receive the report (the reason
 * beside it); each with the file it carried.
 */
export function Deliveries({ task }: { task: Pick<Task, 'last_run' | 'deliveries' | 'time_zone'> }) {
  const { t, i18n } = useTranslation();
  const when = (instant: string) => formatInZone(instant, task.time_zone, i18n.language, 'short');
  const lastRun = task.last_run;
  return (
    <Card data-testid="schedule-deliveries">
      <CardHeader
        title={t('queryScheduler.deliveries')}
        subheader={
          lastRun
            ? [
                t('queryScheduler.lastRun', { at: when(lastRun.at), status: t(`queryScheduler.runStatuses.${lastRun.status}`) }),
                lastRun.report_ids.length > 1 ? t('queryScheduler.lastRunFiles', { count: lastRun.report_ids.length }) : null,
              ]
                .filter(Boolean)
                .join(' · ')
            : t('queryScheduler.neverRun')
        }
        slotProps={{ subheader: { 'data-testid': 'schedule-last-run' } as object }}
      />
      <Box sx={{ px: 3, pb: 3, display: 'flex', flexDirection: 'column', gap: 2 }}>
        {lastRun?.error ? <Alert severity="error">{lastRun.error}</Alert> : null}
        {task.deliveries.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('queryScheduler.noDeliveries')}
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{t('queryScheduler.deliveredAt')}</TableCell>
                  <TableCell>{t('queryScheduler.recipient')}</TableCell>
                  <TableCell>{t('queryScheduler.deliveryStatus')}</TableCell>
                  <TableCell>{t('queryScheduler.deliveryFile')}</TableCell>
                  <TableCell>{t('queryScheduler.deliveryError')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {task.deliveries.map((delivery, index) => (
                  <TableRow key={`${delivery.at}-${delivery.recipient}-${index}`} data-testid="schedule-delivery" data-status={delivery.status}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(delivery.at)}</TableCell>
                    <TableCell>{delivery.recipient}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={COLOR[delivery.status] ?? 'default'}
                        variant={delivery.status === 'withheld' ? 'outlined' : 'filled'}
                        label={t(`queryScheduler.deliveryStatuses.${delivery.status}`)}
                      />
                    </TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{delivery.file_name ?? '—'}</TableCell>
                    <TableCell>{delivery.error ?? ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </Box>
    </Card>
  );
}
