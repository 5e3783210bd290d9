// The sales overview's charts (loaded on their own, after the rest of the screen): the chosen value
// over time against the span before (lines or bars, as the user picks), and by group against the
// span before.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { Query } from '../../../api/client';
import type { SalesBar, SalesLineChart } from '../../../api/types';
import type { GroupingPeriod, ReportValue } from '../../../components/report-filters/report-filter-state';
import { RetryAlert } from '../../../components/retry-alert';
import { useSalesBarChart, useSalesLineChart } from '../api/sales';
import type { ChartKind } from './chart-kind';
import { formatPeriodDate } from '../../../components/format';
import { formatValue } from '../../../components/reports/sales-figures';
import { Described, formatTick } from '../../../components/reports/chart-parts';

const LINE_HEIGHT = 320;
const BAR_ROW = 28;

export interface SalesChartsProps {
  query: Query;
  enabled: boolean;
  value: ReportValue;
  grouping: GroupingPeriod;
  groupLabel: string;
  /** The compared span, formatted: the previous series is labelled "vs <span>". */
  compared?: string;
  /** The chart over time as lines or bars. */
  kind: ChartKind;
  /** The control choosing `kind`, in the chart's header. */
  kindToggle?: ReactNode;
}

function ChartState({ loading, error, empty, onRetry, height }: { loading: boolean; error: boolean; empty: boolean; onRetry: () => void; height: number }) {
  const { t } = useTranslation();
  if (error)
    return (
      <RetryAlert sx={{ mx: 2.5, mb: 2.5 }} onRetry={onRetry}>
        {t('sales.loadFailed')}
      </RetryAlert>
    );
  if (loading) return <Skeleton variant="rounded" sx={{ mx: 2.5, mb: 2.5 }} height={height} />;
  if (empty)
    return (
      <Box sx={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Typography sx={{ color: 'text.secondary' }}>{t('sales.noSales')}</Typography>
      </Box>
    );
  return null;
}

const hasSales = (values: number[]) => values.some((value) => value !== 0);
const sum = (values: (number | null)[]) => values.reduce<number>((total, figure) => total + (figure ?? 0), 0);

function OverTime({ data, value, grouping, compared, kind }: { data: SalesLineChart; value: ReportValue; grouping: GroupingPeriod; compared?: string; kind: ChartKind }) {
  const { t, i18n } = useTranslation();
  const previousLabel = compared ? t('sales.comparedWith', { range: compared }) : t('sales.previousPeriod');
  const language = i18n.language;
  const labels = data.dates.map((date, index) => (grouping === 'week' ? (data.labels[index] ?? date) : formatPeriodDate(date, grouping, language)));
  const previous = data.dates.map((_date, index) => data.previous[index] ?? null);
  const format = (figure: number | null) => (figure === null ? '—' : formatValue(figure, value, language));
  const comparison = useTheme().palette.text.secondary;
  const highest = data.current.reduce((best, figure, index) => (figure > data.current[best] ? index : best), 0);
  const summary = t(kind === 'bars' ? 'sales.overTimeBarSummary' : 'sales.overTimeSummary', {
    first: labels[0],
    last: labels[labels.length - 1],
    current: format(sum(data.current)),
    previous: format(sum(previous)),
    highest: format(data.current[highest] ?? null),
    highestAt: labels[highest],
  });
  const yAxis = [{ valueFormatter: (figure: number) => formatTick(figure, value, language), width: 64 }];
  const series = [
    { id: 'current', data: data.current, label: t('sales.currentPeriod'), valueFormatter: format },
    { id: 'previous', data: previous, label: previousLabel, valueFormatter: format, color: comparison },
  ];
  return (
    <Described summary={summary}>
      {kind === 'bars' ? (
        <BarChart height={LINE_HEIGHT} xAxis={[{ scaleType: 'band', data: labels }]} yAxis={yAxis} series={series} grid={{ horizontal: true }} />
      ) : (
        <LineChart
          height={LINE_HEIGHT}
          xAxis={[{ scaleType: 'point', data: labels }]}
          yAxis={yAxis}
          series={series.map((line) => ({ ...line, showMark: false, curve: 'linear' as const }))}
          grid={{ horizontal: true }}
        />
      )}
    </Described>
  );
}

function ByGroup({ bars: all, value, compared }: { bars: SalesBar[]; value: ReportValue; compared?: string }) {
  const { t, i18n } = useTranslation();
  // The long tail is a line under the chart, never a bar that squashes the others.
  const others = all.find((bar) => bar.id === 'others');
  const bars = all.filter((bar) => bar.id !== 'others');
  const previousLabel = compared ? t('sales.comparedWith', { range: compared }) : t('sales.previousPeriod');
  const language = i18n.language;
  const names = bars.map((bar) => (bar.id === 'others' ? t('sales.others') : bar.name || t('sales.noGroup')));
  const format = (figure: number | null) => (figure === null ? '—' : formatValue(figure, value, language));
  const comparison = useTheme().palette.text.secondary;
  const summary = t('sales.byGroupSummary', {
    count: bars.length,
    name: names[0],
    current: format(bars[0]?.current ?? null),
    previous: format(bars[0]?.previous ?? null),
  });
  return (
    <Described summary={summary}>
      <BarChart
        layout="horizontal"
        height={Math.max(LINE_HEIGHT, bars.length * BAR_ROW + 80)}
        yAxis={[{ scaleType: 'band', data: names, width: 140 }]}
        xAxis={[{ valueFormatter: (figure: number) => formatTick(figure, value, language) }]}
        series={[
          { id: 'current', data: bars.map((bar) => bar.current), label: t('sales.currentPeriod'), valueFormatter: format },
          { id: 'previous', data: bars.map((bar) => bar.previous), label: previousLabel, valueFormatter: format, color: comparison },
        ]}
        grid={{ vertical: true }}
      />
      {others ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', px: 2, pb: 2 }} data-testid="sales-bar-others">
          {t('sales.othersLine', { current: format(others.current), previous: format(others.previous), compared: previousLabel })}
        </Typography>
      ) : null}
    </Described>
  );
}

/** The line chart and the bar chart, side by side on a wide screen. */
export default function SalesCharts({ query, enabled, value, grouping, groupLabel, compared, kind, kindToggle }: SalesChartsProps) {
  const { t } = useTranslation();
  const line = useSalesLineChart(query, enabled);
  const bars = useSalesBarChart(query, enabled);
  const lineEmpty = !line.data || (!hasSales(line.data.current) && !hasSales(line.data.previous));
  const barsEmpty = !bars.data || bars.data.length === 0;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, lg: 7 }}>
        <Card data-testid="sales-line-chart" aria-busy={line.isFetching} sx={{ height: 1 }}>
          <CardHeader title={t('sales.overTime')} action={kindToggle} sx={{ flexWrap: 'wrap', gap: 1 }} />
          <ChartState loading={line.isPending && enabled} error={line.isError} empty={lineEmpty} onRetry={() => void line.refetch()} height={LINE_HEIGHT} />
          {line.data && !lineEmpty && !line.isError ? <OverTime data={line.data} value={value} grouping={grouping} compared={compared} kind={kind} /> : null}
        </Card>
      </Grid>
      <Grid size={{ xs: 12, lg: 5 }}>
        <Card data-testid="sales-bar-chart" aria-busy={bars.isFetching} sx={{ height: 1 }}>
          <CardHeader title={t('sales.byGroup', { group: groupLabel.toLowerCase() })} />
          <ChartState loading={bars.isPending && enabled} error={bars.isError} empty={barsEmpty} onRetry={() => void bars.refetch()} height={LINE_HEIGHT} />
          {bars.data && !barsEmpty && !bars.isError ? <ByGroup bars={bars.data} value={value} compared={compared} /> : null}
        </Card>
      </Grid>
    </Grid>
  );
}
