import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ComponentStock, ProductStock, SelectionStock } from '../../api/types';
import i18next from '../../locales/i18n';
import { fakeApi } from '../../test/fake-api';
import { data, filterRoutes, lastParams, page, plain, renderReport, type Routes } from '../../test/report-api';
import { expiryTone, fillRatio, localToday } from './inventory-logic';
import InventoryPage from './pages/inventory-page';

const ALL = ['reports.inventory_report.products_list', 'reports.inventory_report.products_export', 'reports.inventory_report.components_list', 'reports.inventory_report.components_export'];

const products: ProductStock[] = [
  { product_id: 'p1', name: 'Café crème', units: 'cup', quantity: 378, value_minor: 41580, capacity: 385, machines: 1, selections: 1, sold_out: 0, low: 0, next_expiry: null },
  { product_id: 'p2', name: 'Sandwich', units: 'piece', quantity: 2, value_minor: 820, capacity: 10, machines: 2, selections: 3, sold_out: 1, low: 2, next_expiry: '2026-11-24' },
];
const components: ComponentStock[] = [{ component_id: 'k1', name: 'Coffee beans', unit: 'g', quantity: 14522, machines: 1 }];
const selections: SelectionStock[] = [
  { selection: 'A1', product_id: 'p3', product_name: 'Pain au chocolat', current: 0, max: 6, price_minor: 190, value_minor: 0, expiry_date: '2026-11-20', sold_out: true, low: true },
  { selection: 'B1', product_id: 'p2', product_name: 'Sandwich', current: 1, max: 5, price_minor: 410, value_minor: 410, expiry_date: '2026-11-24', sold_out: false, low: true },
  { selection: 'C1', product_id: 'p4', product_name: 'Chips', current: 12, max: 15, price_minor: 180, value_minor: 2160, expiry_date: null, sold_out: false, low: false },
];

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/inventories/': page(products),
    'GET /api/inventories/components/': page(components),
    'GET /api/inventories/machines/m1/': data(selections),
    ...routes,
  });
}

function renderPage(modules: string[] = ALL, url = '/report/inventory-report') {
  return renderReport({ path: '/report/inventory-report', title: 'nav.inventoryReport', screen: <InventoryPage />, url, modules });
}

beforeEach(() => {
  // Expiry dates are judged against today.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 23, 10, 0));
});

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('stock urgency', () => {
  it('reads expiry dates against today', () => {
    expect(localToday()).toBe('2026-11-23');
    expect(expiryTone('2026-11-22', '2026-11-23')).toBe('expired');
    expect(expiryTone('2026-11-23', '2026-11-23')).toBe('soon');
    expect(expiryTone('2026-11-26', '2026-11-23')).toBe('soon');
    expect(expiryTone('2026-11-27', '2026-11-23')).toBe('ok');
    expect(expiryTone(null, '2026-11-23')).toBe('none');
    expect(fillRatio(2, 10)).toBe(0.2);
    expect(fillRatio(3, 0)).toBe(0);
  });
});

describe('inventory report', () => {
  it('shows the stock by product, with its value and what needs a visit, for the machines of the URL', async () => {
    const api = serve();
    renderPage(ALL, '/report/inventory-report?machines=m1,m2&period=previous_month');
    const grid = within(await screen.findByTestId('inventory-products-grid'));
    await grid.findByText('Sandwich');
    expect(grid.getByText('€415.80')).toBeTruthy();
    expect(grid.getByText('378')).toBeTruthy();
    expect(grid.getByText('Nov 24, 2026').dataset.tone).toBe('soon');
    // Stock is now: no period in the filter bar or the request.
    expect(screen.queryByTestId('report-period')).toBeNull();
    expect(lastParams(api.calls, '/api/inventories/')).toEqual({ machines: 'm1,m2', page: '1', page_size: '25' });
  });

  it('searches by name', async () => {
    const api = serve();
    renderPage();
    await within(await screen.findByTestId('inventory-products-grid')).findByText('Sandwich');
    fireEvent.change(screen.getByTestId('inventory-products-search'), { target: { value: 'sand' } });
    await waitFor(() => expect(lastParams(api.calls, '/api/inventories/')).toMatchObject({ search: 'sand' }));
  });

  it('moves to the component tab in the URL', async () => {
    const api = serve();
    const router = renderPage();
    await within(await screen.findByTestId('inventory-products-grid')).findByText('Sandwich');
    fireEvent.click(screen.getByTestId('inventory-tab-components'));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=components'));
    await within(await screen.findByTestId('inventory-components-grid')).findByText('14,522');
    expect(lastParams(api.calls, '/api/inventories/components/')).toEqual({ page: '1', page_size: '25' });
  });

  it('shows only the tabs and buttons the keys grant', async () => {
    const api = serve();
    renderPage(['reports.inventory_report.components_list'], '/report/inventory-report?tab=products');
    await within(await screen.findByTestId('inventory-components-grid')).findByText('Coffee beans');
    expect(screen.queryByTestId('inventory-tab-products')).toBeNull();
    expect(screen.queryByTestId('inventory-export')).toBeNull();
    expect(screen.queryByTestId('machine-stock-open')).toBeNull();
    expect(api.calls.some((call) => call.path === '/api/inventories/')).toBe(false);
  });

  it('exports the tab on screen with the filters', async () => {
    const createObjectURL = vi.fn(() => 'blob:inventory');
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    onTestFinished(() => {
      Object.assign(URL, original);
    });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const api = serve({
      'GET /api/inventory/export/': () => ({
        status: 200,
        body: 'Component,Unit\nCoffee beans,g',
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="inventory-components.csv"' },
      }),
    });
    renderPage(ALL, '/report/inventory-report?tab=components&clients=c1');
    fireEvent.click(await screen.findByTestId('inventory-export'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual(['inventory-components.csv']));
    expect(lastParams(api.calls, '/api/inventory/export/')).toEqual({ clients: 'c1', tab: 'components', format: 'csv' });
  });

  it('opens a machine’s selections, expiring soonest first', async () => {
    const api = serve();
    renderPage(ALL, '/report/inventory-report?machines=m1');
    fireEvent.click(await screen.findByTestId('machine-stock-open'));
    const drawer = within(await screen.findByTestId('machine-stock'));
    const table = within(await drawer.findByTestId('machine-stock-table'));
    await table.findByText('Pain au chocolat');
    expect(table.getByText('Sold out')).toBeTruthy();
    expect(table.getByText('Nov 20, 2026').dataset.tone).toBe('expired');
    expect(table.getAllByText('€4.10')).toHaveLength(2);
    expect(api.calls.some((call) => call.path === '/api/inventories/machines/m1/')).toBe(true);
  });

  it('says when there is no stock, in French, and shows a failed list with a retry', async () => {
    await i18next.changeLanguage('fr');
    let fails = true;
    serve({ 'GET /api/inventories/': () => (fails ? { status: 500, body: {} } : page([])()) });
    renderPage();
    const failed = await screen.findByTestId('inventory-products-error');
    fails = false;
    fireEvent.click(within(failed).getByRole('button', { name: 'Réessayer' }));
    await within(await screen.findByTestId('inventory-products-grid')).findByText('Aucun stock dans les machines choisies');
    expect(plain(screen.getByTestId('inventory-tab-components'))).toBe('Composants');
  });
});
