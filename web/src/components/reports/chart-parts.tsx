// What the sales overview's charts and the dashboard's trend charts share: short axis ticks and
// the text alternative read out in a chart's place.
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import type { ReportValue } from '../report-filters/report-filter-state';
import { SALES_CURRENCY } from './sales-figures';

/** An axis tick: short ("€1.2K", "1.5K"). */
export function formatTick(figure: number, value: ReportValue, language: string): string {
  const compact: Intl.NumberFormatOptions = { notation: 'compact', maximumFractionDigits: 1 };
  const amount = value === 'quantity' ? figure : figure / 100;
  return new Intl.NumberFormat(language, value === 'quantity' ? compact : { ...compact, style: 'currency', currency: SALES_CURRENCY }).format(amount);
}

/** A chart with its text alternative: a summary read out in its place (the figures are in a table or beside it). */
export function Described({ summary, children, testId = 'chart-summary' }: { summary: string; children: ReactNode; testId?: string }) {
  return (
    <Box role="img" aria-label={summary} data-testid={testId}>
      {children}
    </Box>
  );
}
