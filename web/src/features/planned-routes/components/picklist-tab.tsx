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
import { formatCount } from '../../../components/format';
import { formatMoney, REPORT_CURRENCY } from '../../../components/money';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { StatCards } from '../../../components/reports/stat-cards';
import { RetryAlert } from '../../../components/retry-alert';
import { useRoutePicklist, useRoutePicklistValues, useRouteStops } from '../api/routes';
import { REMOVED_REASONS, type PicklistLine, type RecipeComponent } from '../api/types';
import { readValueTotals } from '../route-logic';

/** "2 × Cup (pcs)" for each component of a composite product. */
export function componentsText(components: RecipeComponent[] | undefined, language: string): string {
  return (components ?? []).map((component) => `${formatCount(component.quantity, language)} × ${component.name}${component.unit ? ` (${component.unit})` : ''}`).join(', ');
}

const figure = (value: number | null | undefined, language: string) => (typeof value === 'number' ? formatCount(value, language) : NO_FIGURE);

/** Each stop's picklist in stop order, with what the visit booked and the money it stands for. */
export function PicklistTab({ routeId }: { routeId: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const stops = useRouteStops(routeId);
  const picklist = useRoutePicklist(routeId);
  const values = useRoutePicklistValues(routeId);
  if (picklist.isError) return <RetryAlert testId="route-picklist-error" onRetry={() => void picklist.refetch()}>{t('plannedRoutes.picklistFailed')}</RetryAlert>;

  const order = new Map((stops.data ?? []).map((stop) => [stop.machine_id, stop]));
  const lists = [...(picklist.data ?? [])].sort((a, b) => (order.get(a.machine_id)?.order ?? a.order ?? 0) - (order.get(b.machine_id)?.order ?? b.order ?? 0));
  const valued = values.data?.stops ?? [];
  const totals = values.data ? readValueTotals(values.data.data, valued, REPORT_CURRENCY) : null;
  const valueOf = (machineId: string, selection: string): PicklistLine | undefined =>
    valued.find((stop) => stop.machine_id === machineId)?.lines.find((line) => line.selection === selection);
  const currencyOf = (machineId: string) => valued.find((stop) => stop.machine_id === machineId)?.currency ?? totals?.currency ?? REPORT_CURRENCY;
  const money = (minor: number | null | undefined, currency: string) => (typeof minor === 'number' ? formatMoney(minor, currency, language) : NO_FIGURE);
  const reason = (value: string | null) => {
    const known = REMOVED_REASONS.find((item) => item === value);
    return known ? t(`plannedRoutes.reasons.${known}`) : (value ?? '');
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
        const known = order.get(stop.machine_id);
        const currency = currencyOf(stop.machine_id);
        return (
          <Card key={stop.machine_id} data-testid={`route-picklist-${stop.machine_id}`}>
            <CardHeader
              title={`${known?.order ?? stop.order ?? ''}. ${known?.machine_name ?? stop.machine_name ?? stop.machine_id}`}
              subheader={known?.location_name ?? undefined}
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
