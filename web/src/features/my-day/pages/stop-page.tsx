import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import BackIcon from '@mui/icons-material/ArrowBack';
import MapIcon from '@mui/icons-material/MapOutlined';
import type { PicklistLine } from '../../../api/types';
import { formatCount } from '../../../components/format';
import { Page } from '../../../components/page';
import { paths } from '../../../routes/paths';
import { AuditUpload } from '../components/audit-upload';
import { Busy, mapsUrl, OfflineCopy, Section, SyncChip, TOUCH } from '../components/parts';
import { VisitPanel } from '../components/visit-panel';
import { casesAndLoose } from '../loading-logic';
import { useMyRoute, type LoadingList } from '../my-day-data';
import type { OutboxItem } from '../outbox-item';
import { useOutbox, useStopBookings } from '../use-outbox';

/** What to bring per selection, in cases and loose units, and what the van was loaded with. */
function Picklist({ lines, loading }: { lines: PicklistLine[]; loading: LoadingList | null }) {
  const { t, i18n } = useTranslation();
  const loaded = new Map(loading?.products.map((product) => [product.product_id, product]) ?? []);
  if (lines.length === 0) return <Typography>{t('myDay.noPicklist')}</Typography>;
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      {lines.map((line) => {
        const split = casesAndLoose(line.to_bring, line.case_size ?? null);
        const van = loaded.get(line.product_id);
        return (
          <Card component="li" key={line.selection} variant="outlined" sx={{ p: 1.5 }} data-testid="picklist-line" data-selection={line.selection}>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
              <Typography sx={{ fontWeight: 700, fontSize: '1.1rem', flex: 1 }}>
                {line.selection} · {line.product_name}
              </Typography>
              <Typography sx={{ fontWeight: 700, fontSize: '1.1rem' }}>{t('myDay.toBring', { count: line.to_bring })}</Typography>
            </Box>
            {split.cases > 0 ? (
              <Typography sx={{ color: 'text.secondary' }}>
                {t('myDay.cases', { cases: formatCount(split.cases, i18n.language), size: line.case_size, loose: formatCount(split.loose, i18n.language) })}
              </Typography>
            ) : null}
            {van ? <Typography sx={{ color: 'text.secondary' }}>{t('myDay.loadedOnVan', { loaded: formatCount(van.loaded, i18n.language), units: formatCount(van.units, i18n.language) })}</Typography> : null}
          </Card>
        );
      })}
    </Box>
  );
}

/** A booking on the phone the server has not taken yet: its figures as pending. */
function PendingBooking({ item, lines }: { item: OutboxItem; lines: PicklistLine[] }) {
  const { t, i18n } = useTranslation();
  const sent = (item.body.lines as { selection: string; found: number; filled: number; removed: number }[] | undefined) ?? [];
  const names = new Map(lines.map((line) => [line.selection, line.product_name]));
  const reason = typeof item.body.not_serviced === 'string' ? item.body.not_serviced : null;
  return (
    <Card variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, borderWidth: 2 }} data-testid="pending-booking" data-status={item.status}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('myDay.pendingTitle')}
        </Typography>
        <SyncChip status={item.status} />
      </Box>
      {reason ? <Typography>{t('myDay.pendingNotServiced', { reason: t(`myDay.notServicedReasons.${reason as 'other'}`) })}</Typography> : null}
      {sent.map((line) => (
        <Typography key={line.selection} data-testid="pending-line" data-selection={line.selection} data-stock={line.found + line.filled - line.removed}>
          {line.selection} · {names.get(line.selection) ?? ''}: {t('myDay.pendingStock', { stock: formatCount(line.found + line.filled - line.removed, i18n.language) })}
        </Typography>
      ))}
      {item.status === 'refused' ? (
        <>
          <Alert severity="error">{t('myDay.serverSays', { message: item.refusal?.message ?? '' })}</Alert>
          <Button component={RouterLink} to={paths.myDay.queue} variant="contained" sx={TOUCH}>
            {t('myDay.queue')}
          </Button>
        </>
      ) : null}
    </Card>
  );
}

/** `/my-day/routes/:routeId/stops/:machineId`: the stop's picklist, visit, "could not service" and audit file. */
export default function StopPage() {
  const { t } = useTranslation();
  const { routeId = '', machineId = '' } = useParams();
  const [search] = useSearchParams();
  const bundle = useMyRoute(routeId);
  const { items, ready } = useOutbox();
  const bookings = useStopBookings(routeId, machineId).filter((item) => item.kind === 'visit');
  const fixing = items.find((item) => item.id === search.get('fix') && item.status === 'refused');
  const route = bundle.data?.value.route;
  const stop = route?.machines.find((item) => item.machine_id === machineId);
  const picklist = bundle.data?.value.picklists.find((item) => item.machine_id === machineId);
  const lines = picklist?.lines ?? [];
  const pending = bookings.at(-1);
  const done = stop ? Boolean(stop.outcome ?? stop.visited_at) : false;
  return (
    <Page title={stop?.machine_name ?? t('myDay.openStop')}>
      <Button component={RouterLink} to={paths.myDay.route(routeId)} startIcon={<BackIcon />} sx={{ ...TOUCH, alignSelf: 'flex-start' }} color="inherit">
        {t('myDay.back')}
      </Button>
      {bundle.isPending || !ready ? <Busy /> : null}
      {bundle.isError ? <Alert severity="error">{t('myDay.routeFailed')}</Alert> : null}
      {bundle.data ? <OfflineCopy offline={bundle.data.offline} savedAt={bundle.data.savedAt} /> : null}
      {stop && ready ? (
        <>
          <Box>
            <Typography variant="h5" component="h1" data-testid="stop-name">
              {stop.order}. {stop.machine_name}
            </Typography>
            <Typography sx={{ fontSize: '1rem' }}>{[stop.location_name, stop.address].filter(Boolean).join(' · ')}</Typography>
          </Box>
          {typeof stop.latitude === 'number' && typeof stop.longitude === 'number' ? (
            <Button href={mapsUrl(stop.latitude, stop.longitude)} target="_blank" rel="noopener" variant="outlined" startIcon={<MapIcon />} sx={TOUCH}>
              {t('myDay.openMaps')}
            </Button>
          ) : null}
          <Section title={t('myDay.picklist')} testId="my-picklist">
            <Picklist lines={lines} loading={bundle.data?.value.loading ?? null} />
          </Section>
          {fixing ? <Alert severity="error">{t('myDay.fixTitle')}</Alert> : null}
          {!fixing && pending ? <PendingBooking item={pending} lines={lines} /> : null}
          {!fixing && !pending && done ? <Alert severity="success">{t('myDay.alreadyDone')}</Alert> : null}
          {fixing || (!pending && !done) ? (
            <VisitPanel
              key={fixing?.id ?? 'new'}
              routeId={routeId}
              machineId={machineId}
              machineName={stop.machine_name}
              lines={lines}
              decimals={picklist?.decimal_places ?? 2}
              currency={picklist?.currency ?? ''}
              fixing={fixing}
            />
          ) : null}
          <AuditUpload routeId={routeId} machineId={machineId} machineName={stop.machine_name} />
        </>
      ) : null}
    </Page>
  );
}
