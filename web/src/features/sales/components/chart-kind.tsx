import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import BarChartIcon from '@mui/icons-material/BarChart';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { withChanges } from '../../../components/server-list/use-list-state';

/** How the sales over time are drawn: a line a period (the default) or bars side by side. */
export type ChartKind = 'line' | 'bars';

/** The chart kind in the URL (`?chart=bars`; the default leaves it), kept like the report's filters. */
export function useChartKind(): [ChartKind, (kind: ChartKind) => void] {
  const [search, setSearch] = useSearchParams();
  const kind: ChartKind = search.get('chart') === 'bars' ? 'bars' : 'line';
  const setKind = (next: ChartKind) => setSearch((current) => withChanges(current, { chart: next === 'line' ? null : next }), { replace: true });
  return [kind, setKind];
}

/** Line or bars: two buttons with their names, the chosen one pressed. */
export function ChartKindToggle({ kind, onChange }: { kind: ChartKind; onChange: (kind: ChartKind) => void }) {
  const { t } = useTranslation();
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={kind}
      onChange={(_event, value: ChartKind | null) => {
        if (value) onChange(value);
      }}
      aria-label={t('sales.chartKind')}
      data-testid="sales-chart-kind"
    >
      <ToggleButton value="line" data-testid="sales-chart-kind-line" sx={{ gap: 0.5, py: 0.25 }}>
        <ShowChartIcon fontSize="small" />
        {t('sales.chartLine')}
      </ToggleButton>
      <ToggleButton value="bars" data-testid="sales-chart-kind-bars" sx={{ gap: 0.5, py: 0.25 }}>
        <BarChartIcon fontSize="small" />
        {t('sales.chartBars')}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
