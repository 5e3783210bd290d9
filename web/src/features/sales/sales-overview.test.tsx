import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import type { Profile, SalesFigures, SalesTotalTable } from '../../api/types';
import { AuthContext, type AuthContextValue } from '../../auth/context';
import { fakeApi } from '../../test/fake-api';
import { changeOf, formatChange } from '../../components/reports/sales-figures';
import SalesOverviewPage from './pages/sales-overview-page';

// The charts are drawn by their own chunk; here only whether the screen asks for them counts, and
// how it asks (the chart kind, with its toggle in the charts' header).
vi.mock('./components/sales-charts', () => ({
  default: ({ kind, kindToggle }: { kind: string; kindToggle: ReactNode }) => (
    <div data-testid="sales-charts-stub" data-kind={kind}>
      {kindToggle}
    </div>
  ),
}));

const figures = (sales: number, quantity: number): SalesFigures => ({
  quantity,
  sales_minor: sales,
  sales_excl_tax_minor: Math.round(sales * 0.9),
  cash_minor: Math.round(sales * 0.6),
  cashless_minor: sales - Math.round(sales * 0.6),
});

const totals: SalesTotalTable = {
  total: figures(123456, 300),
  previous: { ...figures(100000, 400), cashless_minor: 0 },
  rows: [
    { id: 'm1', name: 'Lobby snack', ...figures(100000, 200), previous: figures(50000, 100) },
    { id: '', name: '—', ...figures(23456, 100), previous: figures(50000, 300) },
  ],
  date_from: '2026-11-01',
  date_to: '2026-11-23',
  previous_from: '2026-10-09',
  previous_to: '2026-10-31',
};

const empty: SalesTotalTable = { ...totals, total: figures(0, 0), previous: figures(0, 0), rows: [] };

const header = [
  { field: 'name', header_name: 'Machine', kind: 'group', date: null },
  { field: '2026-11-01', header_name: '2026-11-01', kind: 'period', date: '2026-11-01' },
  { field: 'total', header_name: 'Total', kind: 'total', date: null },
];
const detail = {
  data: [{ id: 'm1', name: 'Lobby snack', values: { '2026-11-01': 100000 }, total: 100000 }],
  pagination: { count: 1, page: 1, page_size: 25 },
};
const options = (data: unknown[]) => () => ({ status: 200, body: { data } });

function serve(table: SalesTotalTable = totals) {
  return fakeApi({
    'GET /api/sales-journal/total-table/': () => ({ status: 200, body: { data: table } }),
    'GET /api/table/header/': options(header),
    'GET /api/sales-journal/detail-table/': () => ({ status: 200, body: detail }),
    'GET /api/filters/periods/': options([{ key: 'current_month', date_from: '2026-11-01', date_to: '2026-11-23' }, { key: 'custom', date_from: null, date_to: null }]),
    'GET /api/filters/values/': options([{ id: 'quantity', name: 'Quantity' }, { id: 'sales', name: 'Sales' }]),
    'GET /api/filters/grouping-periods/': options([{ id: 'day', name: 'Day' }]),
    'GET /api/filters/sales-journal/group-by/': options([{ id: 'machine', name: 'Machine' }, { id: 'product', name: 'Product' }]),
    'GET /api/filters/clients/': options([]),
    'GET /api/filters/locations/': options([]),
    'GET /api/filters/regions/': options(['Emilia-Romagna']),
    'GET /api/filters/machines/': options([{ id: 'm1', name: 'Lobby snack' }]),
    'GET /api/filters/machines/tags/': options([]),
    'GET /api/filters/products/': options([]),
    'GET /api/filters/products/tags/': options([]),
  });
}

function renderPage(modules: string[], url = '/report/sales-overview') {
  const user = { id: 'u1', name: 'Ann', module: { access_all_modules: false, modules } } as unknown as Profile;
  const auth: AuthContextValue = {
    status: 'authenticated',
    user,
    login: async () => {},
    register: async () => {},
    logout: async () => {},
    switchLanguage: async () => {},
    updateUser: () => {},
  };
  const router = createMemoryRouter([{ path: '/report/sales-overview', element: <SalesOverviewPage />, handle: { title: 'nav.salesOverview' } }], {
    initialEntries: [url],
  });
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AuthContext.Provider value={auth}>
      <QueryClientProvider client={queries}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AuthContext.Provider>,
  );
  return router;
}

const text = (testId: string) => screen.getByTestId(testId).textContent?.replace(/\s/g, ' ');

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('KPI change', () => {
  it('is the change on the previous span, with its direction', () => {
    expect(changeOf(150, 100)).toEqual({ ratio: 0.5, trend: 'up' });
    expect(changeOf(75, 100)).toEqual({ ratio: -0.25, trend: 'down' });
    expect(changeOf(100, 100)).toEqual({ ratio: 0, trend: 'flat' });
    expect(changeOf(10, 0)).toEqual({ ratio: null, trend: 'new' });
    expect(changeOf(0, 0)).toEqual({ ratio: null, trend: 'flat' });
  });

  it('is written with its sign in the UI language', () => {
    expect(formatChange(changeOf(123456, 100000), 'en')).toBe('+23.5%');
    expect(formatChange(changeOf(300, 400), 'en')).toBe('-25%');
    expect(formatChange(changeOf(300, 400), 'fr').replace(/\s/g, ' ')).toBe('-25 %');
    expect(formatChange(changeOf(1, 0), 'en')).toBe('—');
  });
});

describe('sales overview', () => {
  it('shows the KPI cards with the previous span and the change, coloured by direction', async () => {
    const api = serve();
    renderPage(['reports.sales_overview.total_list']);
    await screen.findByTestId('kpi-sales_minor-value');
    expect(text('kpi-sales_minor-value')).toBe('€1,234.56');
    expect(text('kpi-sales_minor-previous')).toMatch(/^vs Oct 9\s?–\s?31, 2026: €1,000\.00$/);
    expect(text('kpi-sales_minor-change')).toBe('+23.5%');
    expect(screen.getByTestId('kpi-sales_minor-change').dataset.trend).toBe('up');
    // What a screen reader hears instead of the figure (hidden text beside it).
    expect(screen.getByTestId('kpi-sales_minor').textContent).toContain('Up +23.5% on the previous period');
    expect(text('kpi-quantity-value')).toBe('300');
    expect(text('kpi-quantity-change')).toBe('-25%');
    expect(screen.getByTestId('kpi-quantity-change').dataset.trend).toBe('down');
    expect(text('kpi-cashless_minor-change')).toBe('—');
    expect(screen.getByTestId('kpi-cashless_minor-change').dataset.trend).toBe('new');
    expect(text('sales-span')).toBe('Nov 1, 2026 – Nov 23, 2026, compared with Oct 9, 2026 – Oct 31, 2026');
    // The totals by group, the row of no group included.
    const table = within(await screen.findByTestId('sales-total-table'));
    await table.findByText('Lobby snack');
    expect(table.getByText('—')).toBeTruthy();
    // Only what the key grants: no charts, no detail table.
    expect(screen.queryByTestId('sales-charts-stub')).toBeNull();
    expect(screen.queryByTestId('sales-detail')).toBeNull();
    expect(api.calls.some((call) => call.path === '/api/sales-journal/detail-table/')).toBe(false);
    const asked = api.calls.find((call) => call.path === '/api/sales-journal/total-table/');
    expect(Object.fromEntries(new URLSearchParams(asked?.search))).toEqual({ period: 'current_month', value: 'sales', group_by: 'machine', grouping_period: 'day' });
  });

  it('writes money and changes in French', async () => {
    await i18next.changeLanguage('fr');
    serve();
    renderPage(['reports.sales_overview.total_list']);
    await screen.findByTestId('kpi-sales_minor-value');
    expect(text('kpi-sales_minor-value')).toBe('1 234,56 €');
    expect(text('kpi-sales_minor-change')).toBe('+23,5 %');
    expect(screen.getByText('Ventes HT', { selector: 'h6, .MuiTypography-subtitle2' })).toBeTruthy();
  });

  it('says when nothing was sold', async () => {
    serve(empty);
    renderPage(['reports.sales_overview.total_list']);
    expect(await screen.findByTestId('sales-empty')).toBeTruthy();
    expect(screen.getByTestId('sales-empty').textContent).toContain('No sales in this period');
  });

  it('shows the server’s reason when it refuses the filters', async () => {
    fakeApi({
      'GET /api/sales-journal/total-table/': () => ({ status: 400, body: { message: 'Invalid input', errors: { machines: ['Unknown machine: x.'] } } }),
    });
    renderPage(['reports.sales_overview.total_list'], '/report/sales-overview?machines=x');
    expect((await screen.findByTestId('sales-error')).textContent).toContain('Unknown machine: x.');
  });

  it('asks for nothing until a custom period has its dates', async () => {
    const api = serve();
    renderPage(['reports.sales_overview.full_access'], '/report/sales-overview?period=custom');
    expect((await screen.findByTestId('sales-span-problem')).textContent).toBe('Choose the first and the last day of the custom period.');
    expect(api.calls.some((call) => call.path.startsWith('/api/sales-journal/'))).toBe(false);
  });

  it('with full access shows the charts and the detail table, and sends the filters of the URL', async () => {
    const api = serve();
    const router = renderPage(['reports.sales_overview.full_access'], '/report/sales-overview?group_by=product&machines=m1&page=1');
    expect(await screen.findByTestId('sales-charts-stub')).toBeTruthy();
    const grid = within(await screen.findByTestId('sales-detail-grid'));
    await grid.findByText('€1,000.00', { selector: '.sales-total-cell, .sales-total-cell *' });
    expect(grid.getByText('Nov 1')).toBeTruthy();
    expect(screen.getByTestId('sales-detail-export')).toBeTruthy();
    const asked = api.calls.find((call) => call.path === '/api/sales-journal/detail-table/');
    expect(Object.fromEntries(new URLSearchParams(asked?.search))).toMatchObject({ group_by: 'product', machines: 'm1', page: '1', page_size: '25' });

    // Another value: the URL changes and the figures are asked for again.
    fireEvent.mouseDown(screen.getByTestId('report-value'));
    fireEvent.click(await screen.findByTestId('report-value-quantity'));
    await waitFor(() => expect(router.state.location.search).toBe('?group_by=product&machines=m1&value=quantity'));
    await waitFor(() =>
      expect(api.calls.some((call) => call.path === '/api/sales-journal/total-table/' && call.search.includes('value=quantity'))).toBe(true),
    );
  });

  it('draws the sales over time as a line or as bars, the choice kept in the URL with the filters', async () => {
    serve();
    const router = renderPage(['reports.sales_overview.full_access'], '/report/sales-overview?group_by=product');
    const charts = await screen.findByTestId('sales-charts-stub');
    expect(charts.dataset.kind).toBe('line');
    const toggle = screen.getByRole('group', { name: 'Chart type' });
    expect(within(toggle).getByRole('button', { name: 'Line' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(toggle).getByRole('button', { name: 'Bars' }));
    await waitFor(() => expect(router.state.location.search).toBe('?group_by=product&chart=bars'));
    expect(screen.getByTestId('sales-charts-stub').dataset.kind).toBe('bars');
    expect(within(toggle).getByRole('button', { name: 'Bars' }).getAttribute('aria-pressed')).toBe('true');
    // Another filter keeps the chart kind; pressing the chosen kind again changes nothing.
    fireEvent.mouseDown(screen.getByTestId('report-value'));
    fireEvent.click(await screen.findByTestId('report-value-quantity'));
    await waitFor(() => expect(router.state.location.search).toBe('?group_by=product&chart=bars&value=quantity'));
    fireEvent.click(within(toggle).getByRole('button', { name: 'Bars' }));
    expect(screen.getByTestId('sales-charts-stub').dataset.kind).toBe('bars');
    // Back to the line: the default leaves the URL.
    fireEvent.click(within(toggle).getByRole('button', { name: 'Line' }));
    await waitFor(() => expect(router.state.location.search).toBe('?group_by=product&value=quantity'));
  });

  it('hides the export without its key', async () => {
    serve();
    renderPage(['reports.sales_overview.list']);
    await screen.findByTestId('sales-detail-grid');
    expect(screen.queryByTestId('sales-detail-export')).toBeNull();
    expect(screen.queryByTestId('sales-kpis')).toBeNull();
  });
});
