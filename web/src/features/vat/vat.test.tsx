import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VatReport, VatRow } from '../../api/types';
import { clearExportJobs } from '../../components/export-jobs';
import i18next from '../../locales/i18n';
import { fakeApi } from '../../test/fake-api';
import { data, filterRoutes, lastParams, plain, queuedExport, renderReport, type Routes } from '../../test/report-api';
import VatPage from './pages/vat-page';
import { groupName, readVatGroup, vatRowId } from './vat-logic';

const ALL = ['reports.vat.list', 'reports.vat.export'];

const figures = (gross: number, net: number, quantity = 10) => ({ quantity, gross_minor: gross, net_minor: net, vat_minor: gross - net });

function row(key: string, name: string, rate: number, gross: number, net: number): VatRow {
  return { key, name, rate_bps: rate, ...figures(gross, net) };
}

const report = (group: string, rows: VatRow[], legacy = 0): VatReport => ({
  date_from: '2026-11-01',
  date_to: '2026-11-23',
  group,
  rows,
  by_rate: [
    { rate_bps: 2200, ...figures(12200, 10000) },
    { rate_bps: 550, ...figures(1055, 1000) },
    { rate_bps: 0, ...figures(300, 300) },
  ],
  taxable: figures(13255, 11000, 20),
  exempt: figures(300, 300),
  total: figures(13555, 11300, 30),
  legacy_sales: legacy,
});

function serve(routes: Routes = {}, legacy = 0) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/vat/': (call) => {
      const group = new URLSearchParams(call.search).get('group') ?? 'rate';
      const rows = group === 'client' ? [row('c1', 'Campus', 2200, 12200, 10000), row('', '', 550, 1055, 1000)] : [];
      return data(report(group, rows, legacy))();
    },
    ...routes,
  });
}

function renderPage(modules: string[] = ALL, url = '/report/vat') {
  return renderReport({ path: '/report/vat', title: 'nav.vat', screen: <VatPage />, url, modules });
}

afterEach(async () => {
  act(() => clearExportJobs());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('VAT logic', () => {
  it('reads the grouping from the address, the rates by default', () => {
    expect(readVatGroup('month')).toBe('month');
    expect(readVatGroup('machine')).toBe('rate');
    expect(readVatGroup(null)).toBe('rate');
  });

  it('names a month in the user’s language and leaves the sales of no group to the screen', () => {
    expect(groupName(row('2026-10', '2026-10', 2200, 1, 1), 'month', 'en')).toBe('Oct 2026');
    expect(groupName(row('2026-10', '2026-10', 2200, 1, 1), 'month', 'fr')).toBe('oct. 2026');
    expect(groupName(row('c1', 'Campus', 2200, 1, 1), 'client', 'en')).toBe('Campus');
    expect(groupName(row('', '', 2200, 1, 1), 'client', 'en')).toBeNull();
    expect(vatRowId(row('c1', 'Campus', 550, 1, 1))).toBe('c1|550');
  });
});

describe('VAT screen', () => {
  it('shows the totals, taxable and exempt apart, and the rates with exempt said in words', async () => {
    serve();
    renderPage();
    await waitFor(() => expect(plain(screen.getByTestId('vat-total-gross-value'))).toBe('€135.55'));
    expect(plain(screen.getByTestId('vat-total-net-value'))).toBe('€113.00');
    expect(plain(screen.getByTestId('vat-total-vat-value'))).toBe('€22.55');
    expect(plain(screen.getByTestId('vat-total-taxable-value'))).toBe('€132.55');
    expect(plain(screen.getByTestId('vat-total-exempt-value'))).toBe('€3.00');
    const rates = within(screen.getByTestId('vat-by-rate'));
    await rates.findByText('22%');
    expect(rates.getByText('5.5%')).toBeTruthy();
    expect(rates.getByText('0% (exempt)')).toBeTruthy();
    // The rate grouping is the rates table: no second table.
    expect(screen.queryByTestId('vat-groups')).toBeNull();
    expect(screen.queryByTestId('vat-legacy')).toBeNull();
  });

  it('groups by client at each rate, names the sales of no client and keeps the grouping in the address', async () => {
    const api = serve();
    const router = renderPage(ALL, '/report/vat?machines=m1');
    fireEvent.click(await screen.findByTestId('vat-group-client'));
    const groups = within(await screen.findByTestId('vat-groups'));
    await groups.findByText('Campus');
    expect(groups.getByText('No client')).toBeTruthy();
    expect(router.state.location.search).toContain('group=client');
    expect(lastParams(api.calls, '/api/vat/')).toEqual({ period: 'current_month', machines: 'm1', group: 'client' });
  });

  it('says how many sales were counted at their product’s current rate', async () => {
    serve({}, 3);
    renderPage();
    expect(plain(await screen.findByTestId('vat-legacy'))).toContain('3 sales were taken in before the ledger kept VAT rates');
  });

  it('exports the filters and the grouping; without the export key there is no button', async () => {
    const api = serve(queuedExport('/api/vat/export/', 'vat.xlsx'));
    renderPage(ALL, '/report/vat?group=month');
    fireEvent.click(await screen.findByTestId('vat-export'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export Excel' }));
    expect(await screen.findByTestId('export-job')).toBeTruthy();
    expect(lastParams(api.calls, '/api/vat/export/')).toEqual({ period: 'current_month', group: 'month', format: 'xlsx' });
  });

  it('hides the export from a user who may only read the report', async () => {
    serve();
    renderPage(['reports.vat.list']);
    await screen.findByTestId('vat-by-rate');
    expect(screen.queryByTestId('vat-export')).toBeNull();
  });
});
