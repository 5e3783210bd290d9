import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Explanation, VisitLine, VisitSum, VisitSummary } from '../../api/types';
import { clearExportJobs } from '../../components/export-jobs';
import i18next from '../../locales/i18n';
import { fakeApi } from '../../test/fake-api';
import { data, filterRoutes, lastParams, page, plain, queuedExport, renderReport, type Routes } from '../../test/report-api';
import VisitLedgerPage from './pages/visit-ledger-page';
import { explanationText, readStatuses, statusCounts, toggleStatus, tubesGained, varianceText } from './visit-ledger-logic';

const ALL = ['reports.visit_ledger.list', 'reports.visit_ledger.export'];

function line(id: string, patch: Partial<VisitLine> = {}): VisitLine {
  return {
    id,
    at: '2026-11-20T09:30:00Z',
    local_date: '2026-11-20',
    machine_id: 'm1',
    machine_name: 'Lobby snack',
    location_id: 'l1',
    location_name: 'Hall A',
    employee_id: 'e1',
    employee_name: 'Marco Bianchi',
    bag_no: `BAG-${id}`,
    currency: 'EUR',
    previous: { id: 'p0', at: '2026-11-13T09:00:00Z', bag_no: 'BAG-0', employee_name: 'Anna Rossi' },
    sales_source: 'events',
    cash_sales_minor: 1250,
    tubes_before_minor: 2000,
    tubes_minor: 2150,
    tubes_after_minor: 2000,
    cash_box_minor: 900,
    bill_stacker_minor: 150,
    ejected_minor: 0,
    refilled_coins_minor: 0,
    collected_minor: 1200,
    counted_minor: 1200,
    variance_minor: -50,
    status: 'unexplained',
    explanations: [],
    ...patch,
  };
}

const at = '2026-11-18T10:00:00Z';
const manual: Explanation = { kind: 'manual_stock_entry', at, amount_minor: null, units: 12, refs: ['refill r-1'] };

const lines = [
  line('1'),
  line('2', { machine_name: 'Gym drinks', status: 'explained', variance_minor: 300, explanations: [manual] }),
  line('3', { status: 'matched', variance_minor: 0, explanations: [{ kind: 'late_event', at, amount_minor: 150, units: 2, refs: ['evt-9', 'evt-10'] }] }),
  line('4', { status: 'first', previous: null, cash_sales_minor: null, tubes_before_minor: null, counted_minor: null, variance_minor: null }),
];

function sum(id: string, name: string, patch: Partial<VisitSum> = {}): VisitSum {
  return {
    id,
    name,
    visits: 4,
    compared: 3,
    collected_minor: 4800,
    cash_sales_minor: 3750,
    counted_minor: 4000,
    variance_minor: 250,
    shorts: 1,
    overs: 1,
    explained: 1,
    unexplained: 1,
    unexplained_minor: 50,
    trend: [
      { start: '2026-11-09', visits: 2, variance_minor: -50, unexplained: 1 },
      { start: '2026-11-16', visits: 2, variance_minor: 300, unexplained: 0 },
    ],
    ...patch,
  };
}

const summary: VisitSummary = { total: sum('', ''), by_employee: [sum('e1', 'Marco Bianchi'), sum('', '', { visits: 1 })], by_machine: [sum('m1', 'Lobby snack')], trend_grain: 'week' };

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/visit-ledger/': (call) => {
      const statuses = new URLSearchParams(call.search).get('status')?.split(',') ?? [];
      return page(statuses.length ? lines.filter((item) => statuses.includes(item.status)) : lines)();
    },
    'GET /api/visit-ledger/summary/': data(summary),
    ...routes,
  });
}

function renderPage(modules: string[] = ALL, url = '/report/visit-ledger') {
  return renderReport({ path: '/report/visit-ledger', title: 'nav.visitLedger', screen: <VisitLedgerPage />, url, modules });
}

const t = i18next.t.bind(i18next);

afterEach(async () => {
  act(() => clearExportJobs());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('visit ledger logic', () => {
  it('words each explanation with its date, units and amount', () => {
    const say = (explanation: Partial<Explanation> & Pick<Explanation, 'kind'>) => explanationText(t, { at, amount_minor: null, units: null, refs: [], ...explanation }, 'EUR', 'en');
    expect(say(manual)).toBe('Stock was typed in by hand on Nov 18, 2026 (12 units) — hand entries make a variance now and the opposite next visit');
    expect(say({ kind: 'manual_stock_entry', units: 1 })).toContain('(1 unit)');
    expect(say({ kind: 'manual_stock_entry' })).toBe('Stock was typed in by hand on Nov 18, 2026 — hand entries make a variance now and the opposite next visit');
    expect(say({ kind: 'counter_reset' })).toBe('The machine’s counters were reset on Nov 18, 2026: sales across it were not counted');
    expect(say({ kind: 'board_change' })).toBe('The machine’s board was changed on Nov 18, 2026: sales across it were not counted');
    expect(say({ kind: 'held_read', amount_minor: 420 })).toBe('An audit read of Nov 18, 2026 is held for review: its sales (€4.20) are not in the figures until it is accepted');
    expect(say({ kind: 'tube_refill', amount_minor: 1000 })).toBe('€10.00 of coins were put into the tubes by hand (DEX CA10)');
    expect(say({ kind: 'late_event', amount_minor: 150, units: 2 })).toBe('2 cash sales (€1.50) arrived after the collection was booked');
    expect(say({ kind: 'late_event', amount_minor: 80, units: 1 })).toBe('1 cash sale (€0.80) arrived after the collection was booked');
  });

  it('speaks French and Italian too', async () => {
    await i18next.changeLanguage('fr');
    const spaced = (text: string) => text.replace(/\s/g, ' ');
    expect(spaced(explanationText(t, { kind: 'tube_refill', at, amount_minor: 1000, units: null, refs: [] }, 'EUR', 'fr'))).toBe('10,00 € de pièces ont été mises à la main dans les tubes (DEX CA10)');
    await i18next.changeLanguage('it');
    expect(spaced(explanationText(t, { kind: 'late_event', at, amount_minor: 150, units: 2, refs: [] }, 'EUR', 'it'))).toBe('2 vendite in contanti (1,50 €) sono arrivate dopo la registrazione del prelievo');
  });

  it('says a variance in words: short, over, exact, or nothing to compare', () => {
    expect(varianceText(t, -50, 'EUR', 'en')).toBe('Short by €0.50');
    expect(varianceText(t, 200, 'EUR', 'en')).toBe('Over by €2.00');
    expect(varianceText(t, 0, 'EUR', 'en')).toBe('Exact');
    expect(varianceText(t, null, 'EUR', 'en')).toBe('The machine’s first collection: nothing to compare with');
  });

  it('keeps the chosen statuses in the screen’s order, and toggles one', () => {
    expect(readStatuses('first,bogus,unexplained,first')).toEqual(['unexplained', 'first']);
    expect(readStatuses(null)).toEqual([]);
    expect(toggleStatus(['first'], 'unexplained')).toEqual(['unexplained', 'first']);
    expect(toggleStatus(['unexplained', 'first'], 'unexplained')).toEqual(['first']);
  });

  it('counts the lines of each status from a sum, and what the tubes gained', () => {
    expect(statusCounts(sum('', '', { visits: 10, compared: 8, explained: 2, unexplained: 3 }))).toEqual({ unexplained: 3, explained: 2, matched: 3, first: 2 });
    expect(tubesGained(line('1'))).toBe(150);
    expect(tubesGained(line('1', { tubes_before_minor: null }))).toBeNull();
  });
});

describe('visit ledger screen', () => {
  it('shows the totals, the status counts with the unexplained standing out, and each line’s variance and status in words', async () => {
    serve();
    renderPage();
    await waitFor(() => expect(plain(screen.getByTestId('visit-total-variance-value'))).toBe('+€2.50'));
    expect(plain(screen.getByTestId('visit-total-unexplained-value'))).toBe('1');
    const unexplained = screen.getByTestId('visit-status-unexplained');
    expect(plain(unexplained)).toBe('Unexplained: 1');
    expect(unexplained.className).toContain('colorError');
    expect(plain(screen.getByTestId('visit-status-first'))).toBe('First collection: 1');
    const grid = within(await screen.findByTestId('visit-ledger-grid'));
    await grid.findByText('Gym drinks');
    expect(grid.getAllByTestId('visit-status').map((chip) => chip.getAttribute('data-status'))).toEqual(['unexplained', 'explained', 'matched', 'first']);
    expect(grid.getAllByTestId('visit-variance').map((chip) => plain(chip))).toEqual(['-€0.50', '+€3.00', '€0.00', '—']);
    // A screen reader hears the sentence, not the colour.
    expect(grid.getByText('Short by €0.50')).toBeTruthy();
  });

  it('filters the lines by status through the chips (in the address, back to the first page)', async () => {
    const api = serve();
    const router = renderPage(ALL, '/report/visit-ledger?page=2&employees=e1');
    fireEvent.click(await screen.findByTestId('visit-status-unexplained'));
    await waitFor(() => expect(router.state.location.search).toContain('status=unexplained'));
    expect(router.state.location.search).not.toContain('page=');
    await waitFor(() => expect(lastParams(api.calls, '/api/visit-ledger/')).toMatchObject({ status: 'unexplained', employees: 'e1' }));
    // The counts stay those of every status.
    expect(lastParams(api.calls, '/api/visit-ledger/summary/')).toEqual({ period: 'current_month', employees: 'e1' });
    expect(screen.getByTestId('visit-status-unexplained').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('visit-status-all'));
    await waitFor(() => expect(router.state.location.search).not.toContain('status='));
  });

  it('opens a line’s explanation: the chain and each record in words, or that nothing explains it', async () => {
    serve();
    renderPage();
    const grid = within(await screen.findByTestId('visit-ledger-grid'));
    const whys = await grid.findAllByRole('button', { name: /^Why\?/ });
    fireEvent.click(whys[1]);
    const drawer = within(await screen.findByTestId('visit-explanation'));
    expect(plain(drawer.getByTestId('visit-chain-previous'))).toContain('bag BAG-0, by Anna Rossi');
    expect(plain(drawer.getByTestId('visit-chain-sales'))).toContain('€12.50');
    expect(plain(drawer.getByTestId('visit-chain-tubes'))).toBe('€20.00 when the previous collector left → €21.50 found → €20.00 left');
    expect(plain(drawer.getByTestId('visit-chain-counted'))).toContain('bag €12.00 − coins ejected into it €0.00 + what the tubes gained €1.50');
    expect(drawer.getAllByTestId('visit-explanation-item').map((item) => plain(item))).toEqual([
      'Stock was typed in by hand on Nov 18, 2026 (12 units) — hand entries make a variance now and the opposite next visitRecords: refill r-1',
    ]);
    expect(drawer.queryByTestId('visit-unexplained')).toBeNull();
    fireEvent.click(drawer.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('visit-explanation')).toBeNull());
    // A click on the line opens it too.
    fireEvent.click(grid.getByText('BAG-1'));
    expect(plain(await screen.findByTestId('visit-unexplained'))).toBe('No record explains this variance.');
  });

  it('sums by employee and by machine with the trend read out', async () => {
    serve();
    renderPage();
    const byEmployee = within(await screen.findByTestId('visit-by-employee'));
    await byEmployee.findByText('Marco Bianchi');
    expect(byEmployee.getByText('Unknown employee')).toBeTruthy();
    const trend = (await byEmployee.findAllByTestId('visit-trend'))[0];
    expect(trend.getAttribute('aria-label')).toBe('Variance by week: Nov 9 -€0.50, Nov 16 +€3.00');
    fireEvent.click(screen.getByTestId('visit-tab-machine'));
    await within(await screen.findByTestId('visit-by-machine')).findByText('Lobby snack');
  });

  it('exports the filters and the chosen statuses', async () => {
    const api = serve(queuedExport('/api/visit-ledger/export/', 'visit-ledger.csv'));
    renderPage(ALL, '/report/visit-ledger?status=unexplained');
    fireEvent.click(await screen.findByTestId('visit-ledger-export'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export CSV' }));
    expect(await screen.findByTestId('export-job')).toBeTruthy();
    expect(lastParams(api.calls, '/api/visit-ledger/export/')).toEqual({ period: 'current_month', status: 'unexplained', format: 'csv' });
  });

  it('with the export key alone, offers the export and says the screen shows nothing else', async () => {
    const api = serve();
    renderPage(['reports.visit_ledger.export']);
    expect(await screen.findByTestId('visit-ledger-export-only')).toBeTruthy();
    expect(api.calls.some((call) => call.path.startsWith('/api/visit-ledger/'))).toBe(false);
  });
});
