import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import MapIcon from '@mui/icons-material/MapOutlined';
import { ExportMenu } from '../../../components/export-menu';
import { formatClock, formatDate } from '../../../components/format';
import { useOnline } from '../../../components/use-online';
import { Page } from '../../../components/page';
import { paths } from '../../../routes/paths';
import { Busy, mapsUrl, OfflineCopy, SyncChip, TOUCH } from '../components/parts';
import { exportMyRoute, useMyRoute, type MyStop } from '../my-day-data';
import type { OutboxItem } from '../outbox-item';
import { useOutbox } from '../use-outbox';

/** What a stop shows: the booking waiting on the phone, else what the server knows. */
function StopState({ stop, booking }: { stop: MyStop; booking: OutboxItem | undefined }) {
  const { t } = useTranslation();
  if (booking) return <SyncChip status={booking.status} />;
  const outcome = stop.outcome === 'not_serviced' ? 'not_serviced' : stop.outcome === 'visited' || stop.visited_at ? 'visited' : 'todo';
  return (
    <Chip
      label={t(`myDay.outcome.${outcome}`)}
      color={outcome === 'visited' ? 'success' : outcome === 'not_serviced' ? 'warning' : 'default'}
      variant={outcome === 'todo' ? 'outlined' : 'filled'}
      data-testid="stop-outcome"
      data-outcome={outcome}
      sx={{ fontWeight: 700 }}
    />
  );
}

/** `/my-day/routes/:routeId`: the stops in order, each with its address, its map link and its state. */
export default function RoutePage() {
  const { t, i18n } = useTranslation();
  const { routeId = '' } = useParams();
  const bundle = useMyRoute(routeId);
  const { items } = useOutbox();
  const route = bundle.data?.value.route;
  const online = useOnline();
  // The latest booking of each stop not yet taken by the server.
  const bookings = new Map(items.filter((item) => item.routeId === routeId && item.kind === 'visit' && item.status !== 'sent').map((item) => [item.machineId, item]));
  return (
    <Page title={route?.name ?? t('myDay.routes')}>
      {bundle.isPending ? <Busy /> : null}
      {bundle.isError ? <Alert severity="error">{t(bundle.error && 'status' in bundle.error && bundle.error.status === 0 ? 'myDay.notOnPhone' : 'myDay.routeFailed')}</Alert> : null}
      {bundle.data ? <OfflineCopy offline={bundle.data.offline} savedAt={bundle.data.savedAt} /> : null}
      {route ? (
        <>
          <Box>
            <Typography variant="h5" component="h1" data-testid="route-name">
              {route.name}
            </Typography>
            <Typography sx={{ fontSize: '1rem', color: 'text.secondary' }}>
              {formatDate(route.visit_date, i18n.language)} · {t('myDay.stops', { visited: route.visited, count: route.stops })}
            </Typography>
          </Box>
          {route.picklist_stale && route.picklist_date ? (
            <Alert severity="info" data-testid="picklist-stale">
              {t('myDay.picklistStale', { date: formatDate(route.picklist_date, i18n.language) })}
            </Alert>
          ) : null}
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <Button component={RouterLink} to={`${paths.myDay.loading}?route=${encodeURIComponent(route.id)}`} variant="outlined" sx={{ ...TOUCH, flex: 1 }}>
              {t('myDay.loading')}
            </Button>
            <Box sx={{ '& > button': { minHeight: 48 } }}>
              <ExportMenu testId="my-route-export" disabled={!online} onExport={(format) => exportMyRoute(route.id, format)} />
            </Box>
          </Box>
          <Stack spacing={1.5} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="my-stops">
            {route.machines.map((stop) => (
              <Card component="li" key={stop.machine_id} variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="my-stop" data-machine={stop.machine_id}>
                <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
                  <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
                    {stop.order}. {stop.machine_name}
                  </Typography>
                  <StopState stop={stop} booking={bookings.get(stop.machine_id)} />
                </Box>
                <Typography sx={{ fontSize: '1rem' }}>{[stop.location_name, stop.address].filter(Boolean).join(' · ')}</Typography>
                {stop.arrival ? <Typography sx={{ color: 'text.secondary' }}>{t('myDay.arrival', { time: formatClock(stop.arrival, i18n.language) })}</Typography> : null}
                <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
                  {typeof stop.latitude === 'number' && typeof stop.longitude === 'number' ? (
                    <Button href={mapsUrl(stop.latitude, stop.longitude)} target="_blank" rel="noopener" variant="outlined" startIcon={<MapIcon />} sx={TOUCH} data-testid="stop-maps">
                      {t('myDay.openMaps')}
                    </Button>
                  ) : (
                    <span />
                  )}
                  <Button component={RouterLink} to={paths.myDay.stop(route.id, stop.machine_id)} variant="contained" sx={TOUCH} data-testid="stop-open">
                    {t('myDay.openStop')}
                  </Button>
                </Box>
              </Card>
            ))}
          </Stack>
        </>
      ) : null}
    </Page>
  );
}
