import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import type { Dashboard, SalesFigures } from '../../api/types';
import { readReportFilters } from '../../components/report-filters/report-filter-state';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render-app';
import { attentionSummary, dashboardLinks } from './dashboard-logic';
import DashboardPage from './pages/dashboard-page';

const figures = (sales: number, quantity: number): SalesFigures => ({
  quantity,
  sales_minor: sales,
  sales_excl_tax_minor: Math.round(sales * 0.9),
  cash_minor: Math.round(sales * 0.6),
  cashless_minor: sales - Math.round(sales * 0.6),
});

const full: Dashboard = {
  today: { date_from: '2026-11-23', date_to: '2026-11-23', previous_from: '2026-11-16', previous_to: '2026-11-16', figures: figures(12345, 30), previous: { ...figures(10000, 40), cashless_minor: 0 } },
  month: { date_from: '2026-11-01', date_to: '2026-11-23', previous_from: '2026-10-01', previous_to: '2026-10-23', figures: figures(500000, 900), previous: figures(400000, 800) },
  top_products: [
    { id: 'p1', name: 'Espresso', ...figures(120000, 400) },
    { id: '', name: '', ...figures(1000, 1) },
  ],
  top_machines: [{ id: 'm1', name: 'Lobby snack', ...figures(300000, 500) }],
  attention: [
    {
      machine_id: 'm1',
      machine_name: 'Lobby snack',
      location_id: 'l1',
      findings: [
        { reason: 'sold_out', amount: 3 },
        { reason: 'offline', amount: 30 },
        { reason: 'cash_box_full', amount: 25000 },
        { reason: 'held_audits', amount: 2 },
      ],
    },
    {
      machine_id: 'm2',
      machine_name: 'Gym drinks',
      location_id: null,
      findings: [
        { reason: 'offline', amount: null },
        { reason: 'low', amount: 1 },
        { reason: 'expiring', amount: 4 },
      ],
    },
  ],
};

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
    expect(dashboardLinks.today({ date_from: '2026-11-23', date_to: '2026-11-23' })).toBe(
      '/report/sales-overview?period=custom&date_from=2026-11-23&date_to=2026-11-23',
    );
    expect(query(dashboardLinks.month)).toEqual({ period: 'current_month' });
    expect(query(dashboardLinks.topProducts)).toEqual({ period: 'current_month', group_by: 'product' });
    expect(query(dashboardLinks.topMachines)).toEqual({ period: 'current_month', group_by: 'machine' });
    // The overview reads them back as meant.
    const today = readReportFilters(new URLSearchParams(dashboardLinks.today({ date_from: '2026-11-01', date_to: '2026-11-02' }).split('?')[1]));
    expect(today).toMatchObject({ period: 'custom', date_from: '2026-11-01', date_to: '2026-11-02' });
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

describe('dashboard', () => {
  it('shows today and the month against the span before', async () => {
    serve(full);
    renderDashboard();
    await screen.findByTestId('dashboard-today-sales_minor-value');
    expect(text('dashboard-today-sales_minor-value')).toBe('€123.45');
    expect(text('dashboard-today-sales_minor-change')).toBe('+23.5%');
    expect(screen.getByTestId('dashboard-today-sales_minor-change').dataset.trend).toBe('up');
    expect(text('dashboard-today-sales_minor-previous')).toBe('Same day last week: €100.00');
    expect(text('dashboard-today-quantity-value')).toBe('30');
    expect(text('dashboard-today-quantity-change')).toBe('-25%');
    expect(screen.getByTestId('dashboard-today-quantity-change').dataset.trend).toBe('down');
    expect(text('dashboard-today-cashless_minor-change')).toBe('—');
    expect(text('dashboard-today-span')).toBe('Nov 23, 2026, compared with the same weekday last week (Nov 16, 2026)');
    expect(text('dashboard-month-sales_minor-value')).toBe('€5,000.00');
    expect(text('dashboard-month-sales_minor-change')).toBe('+25%');
    expect(text('dashboard-month-span')).toMatch(/^Nov 1, 2026 – Nov 23, 2026, compared with the same days of last month \(Oct 1\s?–\s?23, 2026\)$/);
    // Sales, quantity, cash and cashless; no sales excl. tax.
    expect(screen.queryByTestId('dashboard-month-sales_excl_tax_minor')).toBeNull();
    expect(screen.queryByTestId('dashboard-today-empty')).toBeNull();
  });

  it('leads each figure to the report behind it', async () => {
    serve(full);
    renderDashboard();
    const todayLink = await screen.findByTestId('dashboard-today-sales_minor-link');
    expect(query(todayLink.getAttribute('href') ?? '')).toEqual({ period: 'custom', date_from: '2026-11-23', date_to: '2026-11-23' });
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
    expect(text('dashboard-attention-summary-offline')).toBe('Offline: 2 machines');
    expect(text('dashboard-attention-summary-sold_out')).toBe('Sold out: 1 machine');

    fireEvent.click(within(machines[1]).getByRole('link'));
    expect((await screen.findByTestId('where')).textContent).toBe('machine /settings/machine-management/m2/overview');
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    serve(full);
    renderDashboard();
    await screen.findByTestId('dashboard-today-sales_minor-value');
    expect(text('dashboard-month-sales_minor-value')).toBe('5 000,00 €');
    expect(text('dashboard-today-sales_minor-previous')).toBe('Même jour la semaine dernière : 100,00 €');
    const chips = within(screen.getAllByTestId('dashboard-attention-machine')[0]).getAllByTestId(/^dashboard-finding-/);
    expect(chips.map((chip) => chip.textContent?.replace(/\s/g, ' '))).toContain('Caisse : 250,00 €');
  });

  it('hides the parts the user may not see and says when there is nothing', async () => {
    serve({
      today: { ...full.month!, date_from: '2026-11-23', date_to: '2026-11-23', figures: figures(0, 0), previous: figures(0, 0) },
      month: null,
      top_products: null,
      top_machines: [],
      attention: [],
    });
    renderDashboard();
    expect((await screen.findByTestId('dashboard-today-empty')).textContent).toBe('No sales yet today');
    expect(screen.getByTestId('dashboard-today-sales_minor-change').dataset.trend).toBe('flat');
    expect(screen.queryByTestId('dashboard-month')).toBeNull();
    expect(screen.queryByTestId('dashboard-top-products')).toBeNull();
    expect(screen.getByTestId('dashboard-top-machines-empty').textContent).toBe('No sales yet this month');
    expect(screen.getByTestId('dashboard-attention-empty').textContent).toBe('Nothing needs attention');
    expect(screen.queryByTestId('dashboard-attention-summary')).toBeNull();
  });

  it('shows only the attention list to a user without sales reports', async () => {
    serve({ today: null, month: null, top_products: null, top_machines: null, attention: full.attention });
    renderDashboard();
    await screen.findAllByTestId('dashboard-attention-machine');
    for (const part of ['dashboard-today', 'dashboard-month', 'dashboard-top-products', 'dashboard-top-machines']) {
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
