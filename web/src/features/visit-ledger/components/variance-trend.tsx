// A sum's variance per week or month as small bars (loaded on its own: the charts library is large),
// with the figures read out in its place.
import { useTranslation } from 'react-i18next';
import { SparkLineChart } from '@mui/x-charts/SparkLineChart';
import { useTheme } from '@mui/material/styles';
import type { TrendPoint, VisitSummary } from '../../../api/types';
import { formatPeriodDate } from '../../../components/format';
import { Described } from '../../../components/reports/chart-parts';
import { formatSignedMoney } from '../../../components/reports/signed-money';
import { REPORT_CURRENCY } from '../../../components/money';

interface VarianceTrendProps {
  points: TrendPoint[];
  grain: VisitSummary['trend_grain'];
}

export default function VarianceTrend({ points, grain }: VarianceTrendProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const language = i18n.language;
  const format = (point: TrendPoint) => `${formatPeriodDate(point.start, grain === 'month' ? 'month' : 'day', language)} ${formatSignedMoney(point.variance_minor, REPORT_CURRENCY, language)}`;
  const values = points.map((point) => point.variance_minor / 100);
  // Bars from zero: short below in red, over above in amber, exact in green (the colours of a variance everywhere).
  const yAxis = {
    min: Math.min(0, ...values),
    max: Math.max(0, ...values),
    colorMap: { type: 'piecewise' as const, thresholds: [-0.001, 0.001], colors: [theme.palette.error.main, theme.palette.success.main, theme.palette.warning.main] },
  };
  const summary = t('visitLedger.trendSpoken', { grain: t(`visitLedger.grain.${grain}`), points: points.map(format).join(', ') });
  return (
    <Described summary={summary} testId="visit-trend">
      <SparkLineChart
        plotType="bar"
        data={values}
        yAxis={yAxis}
        height={36}
        width={120}
      />
    </Described>
  );
}
