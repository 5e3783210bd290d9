import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProductRefills, Refill } from '../../api/types';
import { readReportFilters } from '../../components/report-filters/report-filter-state';
import i18next from '../../locales/i18n';
import { fakeApi } from '../../test/fake-api';
import { data, filterRoutes, lastParams, page, plain, renderReport, type Routes } from '../../test/report-api';
import { refillQuery } from './api/refill-log';
import RefillLogPage from './pages/refill-log-page';

const ALL = ['reports.refill_log.list', 'reports.refill_log.total_list', 'reports.refill_log.export'];
const PRESETS = [
  { key: 'current_month', date_from: '2026-11-01', date_to: '2026-11-23' },
  { key: 'custom', date_from: null, date_to: null },
];

function line(id: string, patch: Partial<Refill>): Refill {
  return {
    id,
    date: '2026-11-21T08:26:00Z',
    local_date: '2026-11-21',
    machine_id: 'm1',
    machine: 'Lobby snack',
    location_id: 'l1',
    location: 'Hall A',
    employee_id: 'e1',
    employee: 'Julien Moreau',
    source: 'machine',
    selection: 'A3',
    product_id: 'p1',
    product_name: 'Cookies',
    amount_added: 1234,
    amount_removed: 0,
    ...patch,
  };
}

const lines = [line('r1', {}), line('r2', { source: 'empty-stock', selection: 'B1', product_name: 'Sandwich', amount_added: 0, amount_removed: 2 })];
const totals: ProductRefills[] = [
  { product_id: 'p1', product_name: 'Cookies', amount_added: 1234, amount_removed: 0, net: 1234, lines: 3 },
  { product_id: 'p2', product_name: 'Sandwich', amount_added: 10, amount_removed: 2, net: 8, lines: 4 },
];

function serve(routes: Routes = {}) {
  return fakeApi({ ...filterRoutes(), 'GET /api/refills/': page(lines), 'GET /api/refills/products/total/': data(totals), ...routes });
}

function renderPage(modules: string[] = ALL, url = '/report/refill-log') {
  return renderReport({ path: '/report/refill-log', title: 'nav.refillLog', screen: <RefillLogPage />, url, modules });
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('refill log parameters', () => {
  const query = (search: string) => refillQuery(readReportFilters(new URLSearchParams(search)), PRESETS);

  it('are the shared period and filters, with the period’s days', () => {
    const fleet = query('machines=m1,m3&locations=l2&clients=c1&products=p1');
    expect(fleet?.from).toBe('2026-11-01');
    expect(fleet?.to).toBe('2026-11-23');
    expect(fleet?.query).toMatchObject({ period: 'current_month', machines: 'm1,m3', locations: 'l2', clients: 'c1', products: 'p1' });
    const custom = query('period=custom&date_from=2026-11-02&date_to=2026-11-05');
    expect(custom).toMatchObject({ from: '2026-11-02', to: '2026-11-05' });
    expect(custom?.query).toMatchObject({ period: 'custom', date_from: '2026-11-02', date_to: '2026-11-05', machines: undefined });
  });

  it('wait for the presets, and for a preset they know', () => {
    expect(refillQuery(readReportFilters(new URLSearchParams('')), undefined)).toBeNull();
    expect(query('period=previous_year')).toBeNull();
  });
});

describe('refill log', () => {
  it('lists the lines and the totals by product, asking with the period', async () => {
    const api = serve();
    renderPage();
    const grid = within(await screen.findByTestId('refill-list-grid'));
    await grid.findByText('Sandwich');
    expect(grid.getByText('Reported by the machine')).toBeTruthy();
    expect(grid.getByText('Empty stock')).toBeTruthy();
    expect(grid.getAllByText('1,234').length).toBe(1);
    expect(plain(screen.getByTestId('refill-span'))).toBe('Refills from Nov 1, 2026 to Nov 23, 2026');
    await waitFor(() => expect(plain(screen.queryByTestId('refill-total-added-value'))).toBe('1,244'));
    expect(plain(screen.getByTestId('refill-total-net-value'))).toBe('1,242');
    expect(plain(screen.getByTestId('refill-total-products'))).toContain('in 7 refill-log lines');
    expect(within(screen.getByTestId('refill-products')).getByText('Cookies')).toBeTruthy();
    expect(lastParams(api.calls, '/api/refills/')).toEqual({ period: 'current_month', page: '1', page_size: '25' });
    expect(lastParams(api.calls, '/api/refills/products/total/')).toEqual({ period: 'current_month' });
  });

  it('asks with the shared filters of the URL, several machines at a time', async () => {
    const api = serve();
    const router = renderPage(ALL, '/report/refill-log?machines=m1&locations=l2');
    await within(await screen.findByTestId('refill-list-grid')).findByText('Sandwich');
    expect(lastParams(api.calls, '/api/refills/')).toMatchObject({ machines: 'm1', locations: 'l2' });
    // The other reports' filters too.
    expect(screen.getByTestId('report-clients')).toBeTruthy();
    expect(screen.getByTestId('report-products')).toBeTruthy();

    const machines = screen.getByTestId('report-machines');
    fireEvent.mouseDown(machines);
    fireEvent.click(await screen.findByRole('option', { name: 'Gym drinks' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('machines')).toBe('m1,m2'));
    await waitFor(() => expect(lastParams(api.calls, '/api/refills/')).toMatchObject({ machines: 'm1,m2', locations: 'l2' }));
  });

  it('opens the refill visit of a line, selection by selection', async () => {
    const api = serve({
      'GET /api/refills/r2/products': data([lines[1], line('r3', { selection: 'B2', product_name: 'Salad', amount_added: 4, amount_removed: 1, source: 'empty-stock' })]),
    });
    renderPage();
    const grid = within(await screen.findByTestId('refill-list-grid'));
    fireEvent.click(await grid.findByRole('button', { name: 'Show the refill visit of Sandwich' }));
    const visit = within(await screen.findByTestId('refill-visit'));
    expect(visit.getByText('Refill of Lobby snack')).toBeTruthy();
    const table = within(visit.getByTestId('refill-visit-table'));
    await table.findByText('Salad');
    expect(visit.getByText('4 added, 3 removed')).toBeTruthy();
    expect(api.calls.some((call) => call.path === '/api/refills/r2/products')).toBe(true);
    fireEvent.click(visit.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('refill-visit')).toBeNull());
  });

  it('shows only what the keys grant', async () => {
    const api = serve();
    renderPage(['reports.refill_log.total_list']);
    await within(await screen.findByTestId('refill-products')).findByText('Cookies');
    expect(screen.queryByTestId('refill-list')).toBeNull();
    expect(screen.queryByTestId('refill-export')).toBeNull();
    expect(api.calls.some((call) => call.path === '/api/refills/')).toBe(false);
  });

  it('says when nothing was refilled, in French', async () => {
    await i18next.changeLanguage('fr');
    serve({ 'GET /api/refills/': page([]), 'GET /api/refills/products/total/': data([]) });
    renderPage();
    await within(await screen.findByTestId('refill-list-grid')).findByText('Aucun réassort sur cette période');
    expect(plain(screen.getByTestId('refill-span'))).toBe('Réassorts du 1 nov. 2026 au 23 nov. 2026');
  });

  it('shows a failed load with a retry', async () => {
    serve({ 'GET /api/refills/products/total/': () => ({ status: 500, body: { message: 'boom' } }), 'GET /api/refills/': () => ({ status: 500, body: {} }) });
    renderPage();
    expect(plain(await screen.findByTestId('refill-totals-error'))).toContain('The refill log could not be loaded.');
    expect(await screen.findByTestId('refill-list-error')).toBeTruthy();
  });
});
