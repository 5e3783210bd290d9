import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Encashment, EncashmentTotals, OverShort } from '../../api/types';
import { clearExportJobs } from '../../components/export-jobs';
import i18next from '../../locales/i18n';
import { fakeApi } from '../../test/fake-api';
import { data, filterRoutes, lastParams, page, plain, renderReport, type Routes } from '../../test/report-api';
import { formatOverShort, overShortTone } from './encashment-logic';
import EncashmentPage from './pages/encashment-page';

const ALL = ['reports.encashment.list', 'reports.encashment.total', 'reports.encashment.export'];

function collection(id: string, patch: Partial<Encashment>): Encashment {
  return {
    id,
    date: '2026-11-18T08:07:00Z',
    local_date: '2026-11-18',
    machine_id: 'm1',
    machine: 'Lobby snack',
    location_id: 'l1',
    location: 'Hall A',
    bag_no: `BAG-${id}`,
    employee_id: 'e1',
    employee: 'Marco Bianchi',
    cash_box_minor: 7400,
    bill_stacker_minor: 0,
    collected_minor: 12650,
    tubes_minor: 9350,
    ejected_minor: 5250,
    refilled_coins_minor: 0,
    currency: 'EUR',
    previous_date: '2026-11-04T08:00:00Z',
    taken_minor: 12650,
    expected_minor: 41570,
    over_short_minor: -28920,
    counted_minor: null,
    counted_over_short_minor: null,
    ...patch,
  };
}

const rows = [
  collection('1', {}),
  collection('2', { expected_minor: 12650, over_short_minor: 0, counted_minor: 13150, counted_over_short_minor: -500 }),
  collection('3', { expected_minor: null, over_short_minor: null, previous_date: null, taken_minor: null }),
  collection('4', { expected_minor: 12150, over_short_minor: 500 }),
];

const overShort = (id: string, name: string, patch: Partial<OverShort>): OverShort => ({
  id,
  name,
  collections: 2,
  compared: 2,
  collected_minor: 25300,
  expected_minor: 54220,
  over_short_minor: -28920,
  shorts: 1,
  ...patch,
});

const totals: EncashmentTotals = {
  total: overShort('', '', { collections: 4, compared: 3, collected_minor: 50600, expected_minor: 66370, over_short_minor: -28420, shorts: 1 }),
  by_employee: [overShort('e1', 'Marco Bianchi', {}), overShort('', '', { over_short_minor: 500, shorts: 0 })],
  by_machine: [overShort('m1', 'Lobby snack', { collections: 4, compared: 3 })],
};

const empty: EncashmentTotals = { total: overShort('', '', { collections: 0, compared: 0, collected_minor: 0, expected_minor: 0, over_short_minor: 0, shorts: 0 }), by_employee: [], by_machine: [] };

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/encashments/': page(rows),
    'GET /api/encashments/total/': data(totals),
    ...routes,
  });
}

function renderPage(modules: string[] = ALL, url = '/report/encashment') {
  return renderReport({ path: '/report/encashment', title: 'nav.encashment', screen: <EncashmentPage />, url, modules });
}

const listGrid = async () => within(await screen.findByTestId('encashment-list-grid'));

afterEach(async () => {
  act(() => clearExportJobs());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('over and short', () => {
  it('is short below what the sales say, over above, exact at it, and nothing without an earlier collection', () => {
    expect(overShortTone(-1)).toBe('short');
    expect(overShortTone(500)).toBe('over');
    expect(overShortTone(0)).toBe('exact');
    expect(overShortTone(null)).toBe('none');
    expect(formatOverShort(500, 'EUR', 'en')).toBe('+€5.00');
    expect(formatOverShort(-28920, 'EUR', 'en')).toBe('-€289.20');
  });
});

describe('encashment', () => {
  it('lists the collections with their money and the over or short, coloured', async () => {
    const api = serve();
    renderPage();
    const grid = await listGrid();
    await grid.findByText('BAG-1');
    expect(grid.getAllByText('€74.00').length).toBe(4);
    expect(grid.getAllByText('€415.70').length).toBe(1);
    const chipsOf = (field: string) =>
      grid.getAllByTestId('over-short').filter((chip) => chip.closest(`[data-field="${field}"]`));
    const tones = (field: string) => chipsOf(field).map((chip) => chip.dataset.tone);
    const chips = chipsOf('over_short_minor');
    expect(tones('over_short_minor')).toEqual(['short', 'exact', 'none', 'over']);
    // The machine's own counters (DEX CA3/CA4), where audits were read at both collections.
    expect(tones('counted_over_short_minor')).toEqual(['none', 'short', 'none', 'none']);
    expect(grid.getAllByText('€131.50').length).toBe(1);
    expect(plain(chips[0])).toBe('-€289.20');
    // What a screen reader hears instead of the chip (hidden text beside it).
    const spoken = (chip: HTMLElement) => plain(chip.closest('[data-field]')).replace(plain(chip), '');
    expect(spoken(chips[0])).toBe('Short by €289.20');
    expect(plain(chips[3])).toBe('+€5.00');
    expect(spoken(chips[2])).toBe('The machine’s first collection: nothing to compare with');
    // Only the encashment's own parameters: no value or grouping of the sales overview.
    expect(lastParams(api.calls, '/api/encashments/')).toEqual({ period: 'current_month', page: '1', page_size: '25' });
  });

  it('sums the period and shows the overs and shorts by employee and by machine', async () => {
    serve();
    renderPage();
    await waitFor(() => expect(plain(screen.queryByTestId('encashment-total-over_short-value'))).toBe('-€284.20'));
    expect(plain(screen.getByTestId('encashment-total-collections-value'))).toBe('4');
    expect(plain(screen.getByTestId('encashment-total-collected-value'))).toBe('€506.00');
    expect(plain(screen.getByTestId('encashment-total-over_short'))).toContain('1 of 3 compared collections came up short');
    const byEmployee = within(screen.getByTestId('encashment-by-employee'));
    await byEmployee.findByText('Marco Bianchi');
    expect(byEmployee.getByText('Unknown employee')).toBeTruthy();
    expect(byEmployee.getByText('1 of 2')).toBeTruthy();
    expect(within(screen.getByTestId('encashment-by-machine')).getByText('Lobby snack')).toBeTruthy();
  });

  it('writes money the French way', async () => {
    await i18next.changeLanguage('fr');
    serve();
    renderPage();
    const grid = await listGrid();
    await grid.findByText('BAG-1');
    expect(plain(grid.getAllByTestId('over-short')[0])).toBe('-289,20 €');
    expect(grid.getAllByText((_text, element) => element?.getAttribute('role') === 'gridcell' && plain(element) === '74,00 €').length).toBe(4);
    expect(screen.getByText('Excédent / manque par employé')).toBeTruthy();
  });

  it('shows only what the keys grant', async () => {
    const api = serve();
    renderPage(['reports.encashment.list']);
    await (await listGrid()).findByText('BAG-1');
    expect(screen.queryByTestId('encashment-total')).toBeNull();
    expect(screen.queryByTestId('encashment-export')).toBeNull();
    expect(api.calls.some((call) => call.path === '/api/encashments/total/')).toBe(false);
  });

  it('without list or totals, says the report can only be exported', async () => {
    const api = serve();
    renderPage(['reports.encashment.export']);
    expect(await screen.findByTestId('encashment-export-only')).toBeTruthy();
    expect(screen.getByTestId('encashment-export')).toBeTruthy();
    expect(api.calls.some((call) => call.path.startsWith('/api/encashments/'))).toBe(false);
  });

  it('sends the filters of the URL, and a new filter goes to the URL and the next request', async () => {
    const api = serve();
    const router = renderPage(ALL, '/report/encashment?period=previous_month&machines=m1&employees=e1&value=quantity');
    await (await listGrid()).findByText('BAG-1');
    expect(lastParams(api.calls, '/api/encashments/total/')).toEqual({ period: 'previous_month', machines: 'm1', employees: 'e1' });
    // The filter bar has no value or grouping, but does have the employees.
    expect(screen.queryByTestId('report-value')).toBeNull();
    expect(screen.queryByTestId('report-group-by')).toBeNull();
    expect(screen.getByTestId('report-employees')).toBeTruthy();

    fireEvent.mouseDown(screen.getByTestId('report-period'));
    fireEvent.click(await screen.findByTestId('report-period-current_month'));
    await waitFor(() => expect(router.state.location.search).toBe('?machines=m1&employees=e1&value=quantity'));
    await waitFor(() => expect(lastParams(api.calls, '/api/encashments/')).toEqual({ period: 'current_month', machines: 'm1', employees: 'e1', page: '1', page_size: '25' }));
  });

  it('says when there was no collection', async () => {
    serve({ 'GET /api/encashments/total/': data(empty), 'GET /api/encashments/': page([]) });
    renderPage();
    expect(plain(await screen.findByTestId('encashment-empty'))).toContain('No collections in this period');
    await (await listGrid()).findByText('No collections in this period');
  });

  it('shows the server’s reason for refused filters, and a failed list with a retry', async () => {
    let listFails = true;
    serve({
      'GET /api/encashments/total/': () => ({ status: 400, body: { message: 'Invalid input', errors: { employees: ['Unknown employee: x.'] } } }),
      'GET /api/encashments/': () => (listFails ? { status: 500, body: { message: 'boom' } } : page(rows)()),
    });
    renderPage(ALL, '/report/encashment?employees=x');
    expect(plain(await screen.findByTestId('encashment-totals-error'))).toContain('Unknown employee: x.');
    const failed = await screen.findByTestId('encashment-list-error');
    listFails = false;
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    await (await listGrid()).findByText('BAG-1');
    expect(screen.queryByTestId('encashment-list-error')).toBeNull();
  });

  it('exports with the filters; a large file is followed as a background job', async () => {
    const api = serve({
      'GET /api/encashments/export/': () => ({
        status: 202,
        body: {
          message: 'Export queued',
          code: 'export_queued',
          data: { id: 'job-1', kind: 'export', status: 'queued', progress: 0, file_name: 'encashment.csv', total: 60000, download_url: null, error: null, created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:00Z' },
        },
      }),
      'GET /api/jobs/job-1/': data({ id: 'job-1', kind: 'export', status: 'running', progress: 30, file_name: 'encashment.csv', total: 60000, download_url: null, error: null, created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:01Z' }),
    });
    renderPage(ALL, '/report/encashment?machines=m1');
    fireEvent.click(await screen.findByTestId('encashment-export'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export CSV' }));
    expect(await screen.findByTestId('export-job')).toBeTruthy();
    expect(lastParams(api.calls, '/api/encashments/export/')).toEqual({ period: 'current_month', machines: 'm1', format: 'csv' });
  });
});
