import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../components/format';
import i18next from '../../locales/i18n';
import { fakeApi } from '../../test/fake-api';
import { data, filterRoutes, lastParams, page, plain, renderReport, type Routes } from '../../test/report-api';
import type { Transaction, TransactionFigures, TransactionTotals } from '../../api/types';
import TransactionLogPage from './pages/transaction-log-page';

const figures = (sales: number, transactions: number): TransactionFigures => ({
  quantity: transactions,
  sales_minor: sales,
  sales_excl_tax_minor: Math.round(sales * 0.9),
  cash_minor: Math.round(sales * 0.6),
  cashless_minor: sales - Math.round(sales * 0.6),
  transactions,
});

const totals: TransactionTotals = {
  total: figures(123456, 1200),
  previous: figures(100000, 1500),
  date_from: '2026-11-01',
  date_to: '2026-11-23',
  previous_from: '2026-10-09',
  previous_to: '2026-10-31',
};

const vend = (id: string, patch: Partial<Transaction>): Transaction => ({
  id,
  at: '2026-11-23T09:15:00Z',
  local_date: '2026-11-23',
  machine_id: 'm1',
  machine: 'Lobby snack',
  location_id: 'l1',
  location: 'Hall A',
  selection: 'A1',
  product_id: 'p1',
  product: 'Espresso',
  quantity: 1,
  revenue_minor: 120,
  revenue_excl_tax_minor: 109,
  currency: 'EUR',
  payment: 'cash',
  ...patch,
});

const vends = [vend('t1', {}), vend('t2', { at: '2026-11-23T08:00:00Z', product: 'Cappuccino', revenue_minor: 250, payment: 'cashless' })];

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/transaction-logs/': page(vends, 2_345_678, 25),
    'GET /api/transaction-logs/total-table/': data(totals),
    ...routes,
  });
}

function renderPage(modules: string[] = ['reports.transaction_log.full_access'], url = '/report/transaction-log') {
  return renderReport({ path: '/report/transaction-log', title: 'nav.transactionLog', screen: <TransactionLogPage />, url, modules });
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('transaction log', () => {
  it('shows the totals against the span before and one page of the vends', async () => {
    const api = serve();
    renderPage();
    await waitFor(() => expect(plain(screen.queryByTestId('transaction-kpi-transactions-value'))).toBe('1,200'));
    expect(plain(screen.getByTestId('transaction-kpi-transactions-change'))).toBe('-20%');
    expect(plain(screen.getByTestId('transaction-kpi-sales_minor-value'))).toBe('€1,234.56');
    expect(plain(screen.getByTestId('transaction-span'))).toBe('Nov 1, 2026 – Nov 23, 2026, compared with Oct 9, 2026 – Oct 31, 2026');
    const grid = within(await screen.findByTestId('transaction-list-grid'));
    await grid.findByText('Cappuccino');
    expect(grid.getByText(formatDateTime('2026-11-23T09:15:00Z', 'en'))).toBeTruthy();
    expect(grid.getByText('€2.50')).toBeTruthy();
    expect(grid.getByText('Cashless')).toBeTruthy();
    // Server paging: the count of millions is the grid's, only one page is asked for.
    expect(plain(screen.getByTestId('transaction-list-grid'))).toContain('2,345,678');
    expect(lastParams(api.calls, '/api/transaction-logs/')).toEqual({ period: 'current_month', page: '1', page_size: '25' });
    expect(screen.getByTestId('transaction-export')).toBeTruthy();
  });

  it('sends the filters of the URL, and a new period goes to the URL and the next request', async () => {
    const api = serve();
    const router = renderPage(['reports.transaction_log.list'], '/report/transaction-log?products=p1&locations=l1&group_by=product&page=2');
    await within(await screen.findByTestId('transaction-list-grid')).findByText('Cappuccino');
    expect(lastParams(api.calls, '/api/transaction-logs/total-table/')).toEqual({ period: 'current_month', products: 'p1', locations: 'l1' });
    expect(lastParams(api.calls, '/api/transaction-logs/')).toEqual({ period: 'current_month', products: 'p1', locations: 'l1', page: '2', page_size: '25' });
    expect(screen.queryByTestId('transaction-export')).toBeNull();

    fireEvent.mouseDown(screen.getByTestId('report-period'));
    fireEvent.click(await screen.findByTestId('report-period-previous_month'));
    // A new filter starts the log from its first page.
    await waitFor(() => expect(router.state.location.search).toBe('?products=p1&locations=l1&group_by=product&period=previous_month'));
    await waitFor(() => expect(lastParams(api.calls, '/api/transaction-logs/')).toMatchObject({ period: 'previous_month', page: '1' }));
  });

  it('with only the export key, offers the export and nothing else', async () => {
    const api = serve();
    renderPage(['reports.transaction_log.export']);
    expect(await screen.findByTestId('transaction-export-only')).toBeTruthy();
    expect(screen.getByTestId('transaction-export')).toBeTruthy();
    expect(api.calls.some((call) => call.path.startsWith('/api/transaction-logs/'))).toBe(false);
  });

  it('says when nothing was sold, in French', async () => {
    await i18next.changeLanguage('fr');
    serve({ 'GET /api/transaction-logs/': page([]), 'GET /api/transaction-logs/total-table/': data({ ...totals, total: figures(0, 0) }) });
    renderPage();
    expect(plain(await screen.findByTestId('transaction-empty'))).toContain('Aucune transaction sur cette période');
    await waitFor(() => expect(plain(screen.queryByTestId('transaction-kpi-sales_minor-value'))).toBe('0,00 €'));
    await within(await screen.findByTestId('transaction-list-grid')).findByText('Aucune transaction sur cette période');
  });

  it('shows failed loads with a retry', async () => {
    serve({
      'GET /api/transaction-logs/': () => ({ status: 404, body: { message: 'No such endpoint', errors: {} } }),
      'GET /api/transaction-logs/total-table/': () => ({ status: 404, body: { message: 'No such endpoint', errors: {} } }),
    });
    renderPage();
    expect(plain(await screen.findByTestId('transaction-totals-error'))).toContain('The transaction totals could not be loaded.');
    expect(await screen.findByTestId('transaction-list-error')).toBeTruthy();
  });
});
