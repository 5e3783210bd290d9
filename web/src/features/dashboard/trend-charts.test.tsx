import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18next from '../../locales/i18n';
import TrendCharts from './components/trend-charts';
import { full } from './test-data';

const trend = full.trend!;
const spaced = (value: string | null | undefined) => value?.replace(/\s/g, ' ');
const summary = (testId: string) => spaced(screen.getByTestId(testId).getAttribute('aria-label'));

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('dashboard trend charts', () => {
  it('name the last 30 days and this month against the month before, with a summary read out', () => {
    render(<TrendCharts trend={trend} until="09:00:41" />);
    const days = screen.getByTestId('dashboard-trend-days');
    expect(days.dataset.days).toBe('30');
    expect(within(days).getByRole('heading', { level: 2 }).textContent).toBe('Last 30 days');
    expect(spaced(days.textContent)).toContain('Sales each day, Oct 28 – Nov 26, 2026 (today until 9:00 AM)');
    // Each day sold 10.00, 20.00 … 300.00: 4,650.00 in all.
    expect(summary('dashboard-trend-days-summary')).toBe(
      'Bar chart of the sales of each of the 30 days, Oct 28 – Nov 26, 2026: €4,650.00 in all, the highest €300.00 (Nov 26), today so far €300.00.',
    );
    const month = screen.getByTestId('dashboard-trend-month');
    expect(within(month).getByRole('heading', { level: 2 }).textContent).toBe('This month against last month');
    expect(month.textContent).toContain('Sales to date (running total) by day of the month');
    expect(summary('dashboard-trend-month-summary')).toBe(
      'Line chart of the running total of sales by day of the month: €520.00 in November 2026 up to day 26, against €260.00 in the same days of October 2026 (+100%).',
    );
  });

  it('speak French', async () => {
    await i18next.changeLanguage('fr');
    render(<TrendCharts trend={trend} until="09:00:41" />);
    expect(within(screen.getByTestId('dashboard-trend-days')).getByRole('heading', { level: 2 }).textContent).toBe('30 derniers jours');
    expect(spaced(screen.getByTestId('dashboard-trend-days').textContent)).toContain('Ventes de chaque jour, 28 oct. – 26 nov. 2026 (aujourd’hui jusqu’à 09:00)');
    expect(summary('dashboard-trend-month-summary')).toBe(
      'Courbe des ventes cumulées par jour du mois : 520,00 € en novembre 2026 jusqu’au jour 26, contre 260,00 € sur les mêmes jours du mois précédent, octobre 2026 (+100 %).',
    );
  });
});
