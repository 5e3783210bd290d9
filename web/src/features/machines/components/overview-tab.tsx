import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { Machine } from '../../../api/types';
import { LoadingScreen } from '../../../components/loading-screen';
import { formatDateTime } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { useMachineOverview } from '../api/machines';

function Field({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.75 }} data-testid={testId}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="subtitle2" sx={{ textAlign: 'right' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** The status chip's colour: fine, unknown or off, and anything else the machine reports (a fault). */
function statusColor(status: string): ChipProps['color'] {
  const value = status.trim().toLowerCase();
  if (value === 'ok' || value === 'online' || value === 'active') return 'success';
  if (value === 'unknown' || value === 'inactive' || value === '') return 'default';
  if (value === 'offline') return 'error';
  return 'warning';
}

/**
 * The machine overview: identity and connection, activity and cash. Telemetry comes from the
 * machine's events and shows "—" until they arrive.
 */
export function OverviewTab({ machine }: { machine: Machine }) {
  const { t, i18n } = useTranslation();
  const overview = useMachineOverview(machine.id);
  if (!overview.data) return overview.isError ? null : <LoadingScreen inline />;
  const o = overview.data;
  const none = '—';
  const text = (value: string | null | undefined) => (value && value.trim() ? value : none);
  const date = (value: string | null | undefined) => (value ? formatDateTime(value, i18n.language) || none : none);
  const money = (value: number | null | undefined) =>
    value == null
      ? none
      : formatMoney(value, o.currency || machine.currency, i18n.language, o.currency && o.currency !== machine.currency ? undefined : machine.decimal_places);
  const statusLabel: Record<string, string> = {
    unknown: t('machines.unknown'),
    inactive: t('common.inactive'),
    active: t('common.active'),
    online: t('machines.online'),
    offline: t('machines.offline'),
    ok: t('machines.statusOk'),
  };
  const powerLabel: Record<string, string> = {
    mains: t('machines.powerMains'),
    battery: t('machines.powerBattery'),
  };
  const power = o.power && o.power.trim() ? (powerLabel[o.power.trim().toLowerCase()] ?? o.power) : none;
  // Modems report a signal either as RSSI in dBm (negative) or as a quality percentage.
  const signal =
    o.signal == null
      ? none
      : o.signal < 0
        ? t('machines.signalDbm', { value: o.signal })
        : t('machines.signalPercent', { value: o.signal });
  const status = o.status && o.status.trim() ? o.status : 'unknown';
  const peripherals = [
    [t('machines.coinChanger'), machine.peripherals.coin_changer],
    [t('machines.billValidator'), machine.peripherals.bill_validator],
    [t('machines.cashless'), machine.peripherals.cashless],
  ] as const;

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }} data-testid="machine-overview">
      <Card>
        <CardHeader title={t('machines.sectionDetails')} />
        <CardContent>
          <Field label={t('machines.name')} value={machine.name} testId="overview-name" />
          <Field label={t('machines.type')} value={text(machine.type)} testId="overview-type" />
          <Field label={t('machines.model')} value={text(machine.model_name)} testId="overview-model" />
          <Field label={t('machines.location')} value={text(machine.location_name)} testId="overview-location" />
          <Field label={t('machines.serial')} value={text(machine.serial)} testId="overview-serial" />
          <Field label={t('machines.mcuSerial')} value={text(machine.mcu_serial)} testId="overview-mcu" />
          <Field
            label={t('machines.tags')}
            value={machine.tags.length > 0 ? machine.tags.map((tag) => tag.name).join(', ') : '—'}
            testId="overview-tags"
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('machines.sectionConnection')} />
        <CardContent>
          <Field
            label={t('common.status')}
            value={<Chip size="small" variant="outlined" color={statusColor(status)} label={statusLabel[status.toLowerCase()] ?? status} />}
            testId="overview-status"
          />
          <Field label={t('machines.connectionMethod')} value={text(o.connection_method)} testId="overview-connection" />
          <Field label={t('machines.protocol')} value={text(o.protocol)} testId="overview-protocol" />
          <Field label={t('machines.firmware')} value={text(o.firmware)} testId="overview-firmware" />
          <Field label={t('machines.lastUpdated')} value={date(o.last_updated)} testId="overview-last-updated" />
          <Field label={t('machines.power')} value={power} testId="overview-power" />
          <Field label={t('machines.signal')} value={signal} testId="overview-signal" />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('machines.sectionActivity')} />
        <CardContent>
          <Field label={t('machines.lastSale')} value={date(o.last_sale)} testId="overview-last-sale" />
          <Field label={t('machines.lastRefill')} value={date(o.last_refill)} testId="overview-last-refill" />
          <Field label={t('machines.lastEncashment')} value={date(o.last_encashment)} testId="overview-last-encashment" />
          <Field label={t('machines.cashBox')} value={money(o.cash_box)} testId="overview-cash-box" />
          <Field label={t('machines.billStacker')} value={money(o.bill_stacker)} testId="overview-bill-stacker" />
          <Field label={t('machines.valueOfTubes')} value={money(o.value_of_tubes)} testId="overview-tubes" />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('machines.sectionPeripherals')} />
        <CardContent>
          {peripherals.map(([label, device]) => (
            <Field
              key={label}
              label={label}
              value={device?.fitted ? [device.model, device.serial].filter(Boolean).join(' · ') || t('machines.fitted') : t('machines.notFitted')}
              testId="overview-peripheral"
            />
          ))}
        </CardContent>
      </Card>
    </Box>
  );
}
