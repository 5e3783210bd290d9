import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import type { AttentionMachine, Dashboard } from '../../api/types';
import { readReportFilters } from '../../components/report-filters/report-filter-state';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render-app';
import { attentionSummary, dashboardLinks, monthToDate, pageOf } from './dashboard-logic';
import DashboardPage from './pages/dashboard-page';
import { days, figures, full, today } from './test-data';

// The trend charts are drawn by their own chunk (trend-charts.test.tsx, and in the browser).
vi.mock('./components/trend-charts', () => ({ default: ({ trend }: { trend: Dashboard['trend'] }) => <div data-testid="trend-charts-stub">{trend?.last_days.length}</div> }));

function Where({ name }: { name: string }) {
  const location = useLocation();
  return <div data-testid="where">{`${name} ${location.pathname}${location.search}`}</div>;
}

function renderDashboard() {
  return renderRoutes(
    [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/report/sales-overview', element: <Where name="overview" /> },
      { path: '/settings/machine-management/:machineId/:tab', element: <Where name="machine" /> },
    ],
    '/dashboard',
  );
}

const serve = (data: Dashboard) => fakeApi({ 'GET /api/dashboard/': () => ({ status: 200, body: { data } }) });
const text = (testId: string) => screen.getByTestId(testId).textContent?.replace(/\s/g, ' ');
const query = (href: string) => Object.fromEntries(new URLSearchParams(href.split('?')[1]));

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('dashboard links', () => {
  it('name the span and grouping of the sales overview', () => {
    expect(dashboardLinks.today('2026-11-23')).toBe('/report/sales-overview?period=custom&date_from=2026-11-23&date_to=2026-11-23');
    expect(query(dashboardLinks.month)).toEqual({ period: 'current_month' });
    expect(query(dashboardLinks.topProducts)).toEqual({ period: 'current_month', group_by: 'product' });
    expect(query(dashboardLinks.topMachines)).toEqual({ period: 'current_month', group_by: 'machine' });
    // The overview reads them back as meant.
    const day = readReportFilters(new URLSearchParams(dashboardLinks.today('2026-11-01').split('?')[1]));
    expect(day).toMatchObject({ period: 'custom', date_from: '2026-11-01', date_to: '2026-11-01' });
    expect(dashboardLinks.machine('m 1')).toBe('/settings/machine-management/m%201/overview');
  });

  it('count the machines of each reason', () => {
    expect(attentionSummary(full.attention ?? [])).toEqual([
      { reason: 'offline', machines: 2 },
      { reason: 'sold_out', machines: 1 },
      { reason: 'low', machines: 1 },
      { reason: 'expiring', machines: 1 },
      { reason: 'cash_box_full', machines: 1 },
      { reason: 'held_audits', machines: 1 },
    ]);
  });
});

describe('dashboard series and pages', () => {
  it('run this month and the month before day of month by day of month', () => {
    const month = days('2026-11-01', 3, (index) => 100 * (index + 1));
    const previous = days('2026-10-01', 3, () => 50);
    expect(monthToDate(month, previous, 'sales_minor')).toEqual({ days: [1, 2, 3], current: [100, 300, 600], previous: [50, 100, 150] });
    // March 30 against February's 28 days (quantities 0, 1, 2…): February's line stops at its last day.
    const march = monthToDate(days('2026-03-01', 30, () => 10), days('2026-02-01', 28, () => 1), 'quantity');
    expect(march.days).toHaveLength(30);
    expect(march.current.slice(-2)).toEqual([406, 435]);
    expect(march.previous.slice(26)).toEqual([351, 378, null, null]);
    // A day missing inside a span sold nothing: the running total carries on.
    const gap = monthToDate([month[0], month[2]], [], 'sales_minor');
    expect(gap).toEqual({ days: [1, 2, 3], current: [100, 100, 400], previous: [null, null, null] });
  });

  it('cut a list into pages of ten', () => {
    const rows = Array.from({ length: 23 }, (_, index) => index);
    expect(pageOf(rows, 0)).toEqual({ rows: rows.slice(0, 10), page: 0, pages: 3 });
    expect(pageOf(rows, 2)).toEqual({ rows: [20, 21, 22], page: 2, pages: 3 });
    // Past the end (the list shrank on a refetch): the last page.
    expect(pageOf(rows, 7).page).toBe(2);
    expect(pageOf([], 0)).toEqual({ rows: [], page: 0, pages: 1 });
  });
});

describe('dashboard', () => {
  it('shows today and the month against the span before', async () => {
    serve(full);
    renderDashboard();
    await screen.findByTestId('dashboard-today-sales_minor-value');
    // Today so far, against the same hours of yesterday and of the same weekday a week before.
    expect(text('dashboard-today-title')).toBe('Today until 9:00 AM');
    expect(text('dashboard-today-span')).toBe(
      'Nov 26, 2026, from midnight to 9:00 AM, compared with the same hours of yesterday (Wed, Nov 25) and of Thu, Nov 19',
    );
    expect(text('dashboard-today-sales_minor-value')).toBe('€123.45');
    expect(text('dashboard-today-sales_minor-yesterday-change')).toBe('+23.5%');
    expect(screen.getByTestId('dashboard-today-sales_minor-yesterday-change').dataset.trend).toBe('up');
    expect(text('dashboard-today-sales_minor-yesterday-previous')).toBe('vs yesterday until 9:00 AM: €100.00');
    expect(text('dashboard-today-sales_minor-week_before-change')).toBe('-17.7%');
    expect(screen.getByTestId('dashboard-today-sales_minor-week_before-change').dataset.trend).toBe('down');
    expect(text('dashboard-today-sales_minor-week_before-previous')).toBe('vs Thu, Nov 19 until 9:00 AM: €150.00');
    // The change is said with what it is compared with, not by its colour alone.
    expect(text('dashboard-today-sales_minor-yesterday')).toContain('Up +23.5% compared with yesterday until 9:00 AM');
    expect(text('dashboard-today-sales_minor-week_before')).toContain('Down -17.7% compared with Thu, Nov 19 until 9:00 AM');
    expect(text('dashboard-today-quantity-value')).toBe('30');
    expect(text('dashboard-today-quantity-yesterday-change')).toBe('-25%');
    expect(text('dashboard-today-quantity-week_before-change')).toBe('0%');
    expect(screen.getByTestId('dashboard-today-quantity-week_before-change').dataset.trend).toBe('flat');
    expect(text('dashboard-today-cashless_minor-yesterday-change')).toBe('—');
    expect(text('dashboard-today-cashless_minor-yesterday')).toContain('No sales yesterday until 9:00 AM: nothing to compare with');
    expect(text('dashboard-month-sales_minor-value')).toBe('€5,000.00');
    expect(text('dashboard-month-sales_minor-change')).toBe('+25%');
    expect(text('dashboard-month-sales_minor-previous')).toBe('Same days last month: €4,000.00');
    expect(text('dashboard-month-span')).toMatch(/^Nov 1, 2026 – Nov 26, 2026, compared with the same days of last month \(Oct 1\s?–\s?26, 2026\)$/);
    // The trend charts, with the reply's days.
    expect((await screen.findByTestId('trend-charts-stub')).textContent).toBe('30');
    // Sales, quantity, cash and cashless; no sales excl. tax.
    expect(screen.queryByTestId('dashboard-month-sales_excl_tax_minor')).toBeNull();
    expect(screen.queryByTestId('dashboard-today-empty')).toBeNull();
  });

  it('leads each figure to the report behind it', async () => {
    serve(full);
    renderDashboard();
    const todayLink = await screen.findByTestId('dashboard-today-sales_minor-link');
    expect(query(todayLink.getAttribute('href') ?? '')).toEqual({ period: 'custom', date_from: '2026-11-26', date_to: '2026-11-26' });
    expect(query(screen.getByTestId('dashboard-month-cash_minor-link').getAttribute('href') ?? '')).toEqual({ period: 'current_month' });
    expect(query(screen.getByTestId('dashboard-top-products-link').getAttribute('href') ?? '')).toEqual({
      period: 'current_month',
      group_by: 'product',
    });
    const machineRows = within(screen.getByTestId('dashboard-top-machines')).getAllByRole('link');
    expect(machineRows.every((link) => link.getAttribute('href') === '/report/sales-overview?period=current_month&group_by=machine')).toBe(true);

    fireEvent.click(screen.getByTestId('dashboard-month-sales_minor-link'));
    expect((await screen.findByTestId('where')).textContent).toBe('overview /report/sales-overview?period=current_month');
  });

  it('ranks the top products and machines', async () => {
    serve(full);
    renderDashboard();
    const rows = await screen.findAllByTestId('dashboard-top-products-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('Espresso');
    expect(rows[0].textContent).toContain('400 units');
    expect(rows[0].textContent).toContain('€1,200.00');
    expect(rows[1].textContent).toContain('No product');
    expect(rows[1].textContent).toContain('1 unit');
    expect(within(screen.getByTestId('dashboard-top-machines')).getByText('Lobby snack')).toBeTruthy();
  });

  it('lists the machines needing attention with a chip a finding', async () => {
    serve(full);
    renderDashboard();
    const machines = await screen.findAllByTestId('dashboard-attention-machine');
    expect(machines).toHaveLength(2);
    const chips = (index: number) => within(machines[index]).getAllByTestId(/^dashboard-finding-/).map((chip) => chip.textContent);
    expect(chips(0)).toEqual(['Sold out: 3 selections', 'Offline for 30 h', 'Cash box: €250.00', '2 audits held']);
    expect(chips(1)).toEqual(['Never reported', 'Low: 1 selection', 'Expiring: 4 selections']);
    expect(within(machines[0]).getByTestId('dashboard-attention-name').textContent).toBe('Lobby snack');
    expect(within(machines[0]).getByTestId('dashboard-attention-location').textContent).toBe('Lyon Part-Dieu');
    expect(within(machines[1]).getByTestId('dashboard-attention-location').textContent).toBe('No location');
    // One page: no pager.
    expect(screen.queryByTestId('dashboard-attention-pages')).toBeNull();
    expect(text('dashboard-attention-summary-offline')).toBe('Offline: 2 machines');
    expect(text('dashboard-attention-summary-sold_out')).toBe('Sold out: 1 machine');

    fireEvent.click(within(machines[1]).getByRole('link'));
    expect((await screen.findByTestId('where')).textContent).toBe('machine /settings/machine-management/m2/overview');
  });

  it('pages the attention list ten machines a page, in the order of the reply', async () => {
    const many: AttentionMachine[] = Array.from({ length: 23 }, (_, index) => ({
      machine_id: `m${index + 1}`,
      machine_name: `Machine ${String(index + 1).padStart(2, '0')}`,
      location_id: `l${index % 3}`,
      location_name: `Site ${index % 3}`,
      findings: [{ reason: index % 2 ? 'low' : 'sold_out', amount: index + 1 }],
    }));
    serve({ ...full, attention: many });
    renderDashboard();
    const names = () => screen.getAllByTestId('dashboard-attention-name').map((name) => name.textContent);
    await screen.findAllByTestId('dashboard-attention-machine');
    expect(names()).toEqual(many.slice(0, 10).map((machine) => machine.machine_name));
    expect(text('dashboard-attention-range')).toBe('1–10 of 23');
    // The tally counts every machine, not only the page's.
    expect(text('dashboard-attention-summary-sold_out')).toBe('Sold out: 12 machines');
    expect(text('dashboard-attention-summary-low')).toBe('Low stock: 11 machines');
    const pages = screen.getByTestId('dashboard-attention-pages');
    expect(pages.getAttribute('aria-label')).toBe('Pages of the machines needing attention');
    fireEvent.click(within(pages).getByRole('button', { name: 'Go to page 3' }));
    await waitFor(() => expect(names()).toEqual(['Machine 21', 'Machine 22', 'Machine 23']));
    expect(text('dashboard-attention-range')).toBe('21–23 of 23');
    expect(within(screen.getAllByTestId('dashboard-attention-machine')[2]).getByTestId('dashboard-attention-location').textContent).toBe('Site 1');
    fireEvent.click(within(pages).getByRole('button', { name: 'Go to previous page' }));
    await waitFor(() => expect(names()[0]).toBe('Machine 11'));
    // Each row opens its machine.
    fireEvent.click(screen.getAllByTestId('dashboard-attention-machine')[0].querySelector('a')!);
    expect((await screen.findByTestId('where')).textContent).toBe('machine /settings/machine-management/m11/overview');
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    serve(full);
    renderDashboard();
    await screen.findByTestId('dashboard-today-sales_minor-value');
    expect(text('dashboard-month-sales_minor-value')).toBe('5 000,00 €');
    expect(text('dashboard-today-title')).toBe('Aujourd’hui jusqu’à 09:00');
    expect(text('dashboard-today-span')).toBe(
      '26 nov. 2026, de minuit à 09:00, comparé aux mêmes heures d’hier (mer. 25 nov.) et du jeu. 19 nov.',
    );
    expect(text('dashboard-today-sales_minor-value')).toBe('123,45 €');
    expect(text('dashboard-today-sales_minor-yesterday-change')).toBe('+23,5 %');
    expect(text('dashboard-today-sales_minor-yesterday-previous')).toBe('vs hier jusqu’à 09:00 : 100,00 €');
    expect(text('dashboard-today-sales_minor-week_before-change')).toBe('-17,7 %');
    expect(text('dashboard-today-sales_minor-week_before-previous')).toBe('vs jeu. 19 nov. jusqu’à 09:00 : 150,00 €');
    expect(text('dashboard-today-sales_minor-week_before')).toContain('En baisse de -17,7 % par rapport à jeu. 19 nov. jusqu’à 09:00');
    expect(text('dashboard-month-sales_minor-previous')).toBe('Mêmes jours le mois dernier : 4 000,00 €');
    expect(within(screen.getAllByTestId('dashboard-attention-machine')[1]).getByTestId('dashboard-attention-location').textContent).toBe('Sans emplacement');
    const chips = within(screen.getAllByTestId('dashboard-attention-machine')[0]).getAllByTestId(/^dashboard-finding-/);
    expect(chips.map((chip) => chip.textContent?.replace(/\s/g, ' '))).toContain('Caisse : 250,00 €');
  });

  it('hides the parts the user may not see and says when there is nothing', async () => {
    serve({
      today: { ...today, figures: figures(0, 0), yesterday: { ...today.yesterday, ...figures(0, 0) }, week_before: { ...today.week_before, ...figures(0, 0) } },
      trend: null,
      month: null,
      top_products: null,
      top_machines: [],
      attention: [],
    });
    renderDashboard();
    expect((await screen.findByTestId('dashboard-today-empty')).textContent).toBe('No sales yet today');
    expect(screen.getByTestId('dashboard-today-sales_minor-yesterday-change').dataset.trend).toBe('flat');
    expect(screen.queryByTestId('dashboard-trend-loading')).toBeNull();
    expect(screen.queryByTestId('trend-charts-stub')).toBeNull();
    expect(screen.queryByTestId('dashboard-month')).toBeNull();
    expect(screen.queryByTestId('dashboard-top-products')).toBeNull();
    expect(screen.getByTestId('dashboard-top-machines-empty').textContent).toBe('No sales yet this month');
    expect(screen.getByTestId('dashboard-attention-empty').textContent).toBe('Nothing needs attention');
    expect(screen.queryByTestId('dashboard-attention-summary')).toBeNull();
  });

  it('shows only the attention list to a user without sales reports', async () => {
    serve({ today: null, month: null, trend: null, top_products: null, top_machines: null, attention: full.attention });
    renderDashboard();
    await screen.findAllByTestId('dashboard-attention-machine');
    for (const part of ['dashboard-today', 'dashboard-month', 'dashboard-trend-loading', 'trend-charts-stub', 'dashboard-top-products', 'dashboard-top-machines']) {
      expect(screen.queryByTestId(part)).toBeNull();
    }
  });

  it('shows skeletons while loading, then an error with a retry', async () => {
    let fail = true;
    const api = fakeApi({
      'GET /api/dashboard/': () => (fail ? { status: 500, body: { message: 'Boom' } } : { status: 200, body: { data: full } }),
    });
    renderDashboard();
    // Before the reply: every part, as skeletons.
    expect(screen.getByTestId('dashboard-today')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-today-sales_minor-value')).toBeNull();
    expect(screen.getByTestId('dashboard-attention')).toBeTruthy();
    expect((await screen.findByTestId('dashboard-error')).textContent).toContain('The dashboard could not be loaded.');
    expect(screen.queryByTestId('dashboard-today')).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('dashboard-today-sales_minor-value');
    await waitFor(() => expect(screen.queryByTestId('dashboard-error')).toBeNull());
    expect(api.calls.filter((call) => call.path === '/api/dashboard/')).toHaveLength(2);
  });
});
