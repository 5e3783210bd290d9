import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { PicklistLine } from '../../../api/types';
import { componentsText, formatCount } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { StatCards } from '../../../components/reports/stat-cards';
import { RetryAlert } from '../../../components/retry-alert';
import { useRoutePicklist, useRoutePicklistValues, useRouteStops } from '../api/routes';
import { removalReason } from '../route-logic';

const figure = (value: number | null | undefined, language: string) => (typeof value === 'number' ? formatCount(value, language) : NO_FIGURE);

/** Each stop's picklist in stop order, with what the visit booked and the money it stands for. */
export function PicklistTab({ routeId }: { routeId: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const stops = useRouteStops(routeId);
  const picklist = useRoutePicklist(routeId);
  const values = useRoutePicklistValues(routeId);
  if (picklist.isError) return <RetryAlert testId="route-picklist-error" onRetry={() => void picklist.refetch()}>{t('plannedRoutes.picklistFailed')}</RetryAlert>;

  const locations = new Map((stops.data ?? []).map((stop) => [stop.machine_id, stop.location_name]));
  const lists = [...(picklist.data ?? [])].sort((a, b) => a.order - b.order);
  const valued = values.data?.stops ?? [];
  const totals = values.data?.totals ?? null;
  const valueOf = (machineId: string, selection: string): PicklistLine | undefined =>
    valued.find((stop) => stop.machine_id === machineId)?.lines.find((line) => line.selection === selection);
  const money = (minor: number | null | undefined, currency: string) => (typeof minor === 'number' ? formatMoney(minor, currency, language) : NO_FIGURE);
  const reason = (value: string) => {
    const known = removalReason(value);
    return known ? t(`plannedRoutes.reasons.${known}`) : value;
  };

  return (
    <Stack spacing={3} data-testid="route-picklist">
      {totals ? (
        <StatCards
          testId="route-values"
          loading={false}
          stats={[
            { key: 'to-bring', label: t('plannedRoutes.toBringValue'), value: money(totals.to_bring_value_minor, totals.currency) },
            { key: 'filled', label: t('plannedRoutes.filledValue'), value: money(totals.filled_value_minor, totals.currency) },
          ]}
        />
      ) : values.isError ? (
        <RetryAlert testId="route-values-error" onRetry={() => void values.refetch()}>
          {t('plannedRoutes.valuesFailed')}
        </RetryAlert>
      ) : null}
      {picklist.isLoading ? <Box sx={{ color: 'text.secondary' }}>{t('app.loading')}</Box> : null}
      {lists.map((stop) => {
        const currency = stop.currency;
        return (
          <Card key={stop.machine_id} data-testid={`route-picklist-${stop.machine_id}`}>
            <CardHeader
              title={`${stop.order}. ${stop.machine_name}`}
              subheader={locations.get(stop.machine_id) ?? undefined}
              slotProps={{ title: { variant: 'subtitle1' } }}
            />
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('plannedRoutes.selection')}</TableCell>
                    <TableCell>{t('plannedRoutes.product')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.current')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.predicted')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.toBring')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.found')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.filled')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.removed')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.price')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.toBringValue')}</TableCell>
                    <TableCell align="right">{t('plannedRoutes.filledValue')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {stop.lines.map((line) => {
                    const value = valueOf(stop.machine_id, line.selection);
                    const components = componentsText(line.components, language);
                    return (
                      <TableRow key={line.selection}>
                        <TableCell>{line.selection}</TableCell>
                        <TableCell>
                          {line.product_name}
                          {components ? (
                            <Box component="span" sx={{ display: 'block', color: 'text.secondary', typography: 'caption' }}>
                              {components}
                            </Box>
                          ) : null}
                        </TableCell>
                        <TableCell align="right">{figure(line.current, language)}</TableCell>
                        <TableCell align="right">{figure(line.predicted_at_visit, language)}</TableCell>
                        <TableCell align="right">
                          <strong>{figure(line.to_bring, language)}</strong>
                        </TableCell>
                        <TableCell align="right">{figure(line.found, language)}</TableCell>
                        <TableCell align="right">{figure(line.filled, language)}</TableCell>
                        <TableCell align="right">
                          {figure(line.removed, language)}
                          {line.removed && line.removed_reason ? ` (${reason(line.removed_reason)})` : ''}
                        </TableCell>
                        <TableCell align="right">{money(value?.price_minor, currency)}</TableCell>
                        <TableCell align="right">{money(value?.to_bring_value_minor, currency)}</TableCell>
                        <TableCell align="right">{money(value?.filled_value_minor, currency)}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </Box>
          </Card>
        );
      })}
      {!picklist.isLoading && lists.length === 0 ? <Box sx={{ color: 'text.secondary' }}>{t('plannedRoutes.noPicklist')}</Box> : null}
    </Stack>
  );
}
