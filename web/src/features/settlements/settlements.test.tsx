import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import type { Mapping, Reconciliation, ReconRow, SettlementImport } from '../../api/types';
import { clearExportJobs } from '../../components/export-jobs';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { data, filterRoutes, lastParams, plain, queuedExport, renderReport, type Routes } from '../../test/report-api';
import SettlementsPage from './pages/settlements-page';
import {
  emptyMappingValues,
  fileToBase64,
  importHistory,
  importProblems,
  rowsOfStatus,
  toMappingBody,
  valuesFromMapping,
} from './settlements-logic';

const ALL = ['reports.settlements.list', 'reports.settlements.import'];

function day(date: string, status: ReconRow['status'], patch: Partial<ReconRow> = {}): ReconRow {
  return {
    machine_id: 'm1',
    machine_name: 'Lobby snack',
    terminal_id: 'T-0001',
    date,
    currency: 'EUR',
    sales_minor: 1250,
    transactions: 5,
    gross_minor: 1250,
    fees_minor: 38,
    net_minor: 1212,
    settled_count: 5,
    difference_minor: 0,
    status,
    payouts: ['PO-1'],
    ...patch,
  };
}

const rows = [
  day('2026-11-02', 'matched'),
  day('2026-11-03', 'short', { gross_minor: 1000, difference_minor: -250, net_minor: 970, fees_minor: 30 }),
  day('2026-11-04', 'not_settled', { gross_minor: 0, fees_minor: 0, net_minor: 0, settled_count: 0, difference_minor: -1250, payouts: [] }),
];

const reconciliation: Reconciliation = {
  date_from: '2026-11-01',
  date_to: '2026-11-23',
  rows,
  totals: { sales_minor: 3750, gross_minor: 2250, fees_minor: 68, net_minor: 2182, difference_minor: -1500, by_status: { matched: 1, short: 1, not_settled: 1 } },
  payouts: [{ reference: 'PO-1', import_id: 'i1', processor: 'Generic', file_name: 'nov.csv', lines: 2, gross_minor: 2250, fees_minor: 68, net_minor: 2182 }],
};

const mapping: Mapping = {
  id: 'map1',
  name: 'Generic',
  columns: { date: 'date', terminal: 'terminal_id', gross: 'gross', fees: 'fees', net: null, count: null, payout_reference: 'payout_reference', currency: null },
  date_format: '%d/%m/%Y',
  decimal_separator: ',',
  amounts_in_minor: false,
  created_at: '2026-11-20T08:00:00Z',
  updated_at: '2026-11-20T08:00:00Z',
  version: 3,
};

function fileImport(id: string, patch: Partial<SettlementImport> = {}): SettlementImport {
  return {
    id,
    mapping_id: 'map1',
    processor: 'Generic',
    file_name: `${id}.csv`,
    imported_at: '2026-11-20T09:00:00Z',
    imported_by: 'u1',
    imported_by_name: 'Ada Admin',
    rows: 2,
    date_from: '2026-11-02',
    date_to: '2026-11-03',
    payouts: ['PO-1'],
    gross_minor: 2250,
    fees_minor: 68,
    net_minor: 2182,
    supersedes: [],
    superseded: {},
    chunks: 1,
    schema: 1,
    ...patch,
  };
}

const imports = [fileImport('second', { supersedes: ['first'] }), fileImport('first', { superseded: { 'PO-1': 'second' } })];

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/settlements/reconciliation/': data(reconciliation),
    'GET /api/settlements/imports/': data(imports),
    'GET /api/settlements/mappings/': data([mapping]),
    ...routes,
  });
}

function renderPage(modules: string[] = ALL, url = '/report/card-settlements') {
  return renderReport({ path: '/report/card-settlements', title: 'nav.cardSettlements', screen: <SettlementsPage />, url, modules });
}

const grid = async () => within(await screen.findByTestId('settlements-grid'));

afterEach(async () => {
  act(() => clearExportJobs());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('settlements logic', () => {
  it('filters the machine-days by status', () => {
    expect(rowsOfStatus(rows, 'short').map((row) => row.date)).toEqual(['2026-11-03']);
    expect(rowsOfStatus(rows, null)).toHaveLength(3);
    expect(rowsOfStatus(rows, 'over')).toEqual([]);
  });

  it('reads a file as base64, whatever its bytes', async () => {
    expect(await fileToBase64(new Blob(['date,gross\n2026-11-02,12.50\n']))).toBe(btoa('date,gross\n2026-11-02,12.50\n'));
    const bytes = new Uint8Array(70_000).map((_, index) => index % 256);
    const decoded = Uint8Array.from(atob(await fileToBase64(new Blob([bytes]))), (char) => char.charCodeAt(0));
    expect(decoded).toEqual(bytes);
  });

  it('lists the server’s reasons: missing columns, then the cells in file order, then the file', () => {
    const error = new ApiError(400, 'Invalid input', {
      file: ['And 3 more errors.'],
      'rows.12.gross': ['Row 12, column "Gross amount": "1,5x" is not an amount.'],
      'rows.3.date': ['Row 3, column "date": "2026-13-01" is not a date.'],
      'columns.fees': ['The file has no column "fees".'],
    });
    expect(importProblems(error).map((problem) => [problem.row, problem.message])).toEqual([
      [null, 'The file has no column "fees".'],
      [3, 'Row 3, column "date": "2026-13-01" is not a date.'],
      [12, 'Row 12, column "Gross amount": "1,5x" is not an amount.'],
      [null, 'And 3 more errors.'],
    ]);
    expect(importProblems(new ApiError(500, 'boom'))).toEqual([]);
    expect(importProblems(new Error('offline'))).toEqual([]);
  });

  it('names the corrections of a file by the other file', () => {
    expect(importHistory(imports[1], imports)).toEqual([{ kind: 'corrected_by', payout: 'PO-1', file: 'second.csv' }]);
    expect(importHistory(imports[0], imports)).toEqual([{ kind: 'corrects', file: 'first.csv' }]);
    expect(importHistory(fileImport('gone', { supersedes: ['unknown'] }), imports)).toEqual([{ kind: 'corrects', file: 'unknown' }]);
  });

  it('sends a mapping with its optional columns as none when empty', () => {
    const values = valuesFromMapping(mapping);
    expect(values.columns.net).toBe('');
    expect(toMappingBody({ ...values, name: ' Acme ' }, 3)).toEqual({
      name: 'Acme',
      columns: { date: 'date', terminal: 'terminal_id', gross: 'gross', payout_reference: 'payout_reference', fees: 'fees', net: null, count: null, currency: null },
      date_format: '%d/%m/%Y',
      decimal_separator: ',',
      amounts_in_minor: false,
      version: 3,
    });
    expect(toMappingBody(emptyMappingValues(true)).columns).toEqual({
      date: 'date', terminal: 'terminal_id', gross: 'gross', payout_reference: 'payout_reference', fees: 'fees', net: 'net', count: 'transactions', currency: 'currency',
    });
  });
});

describe('card settlements screen', () => {
  it('shows the totals, each machine-day with its signed difference and status, and the payouts', async () => {
    const api = serve();
    renderPage();
    const table = await grid();
    await table.findByText('Nov 3, 2026');
    await waitFor(() => expect(plain(screen.getByTestId('settlements-total-difference-value'))).toBe('-€15.00'));
    expect(plain(screen.getByTestId('settlements-total-sales-value'))).toBe('€37.50');
    expect(plain(screen.getByTestId('settlements-total-net-value'))).toBe('€21.82');
    const differences = table.getAllByTestId('settlement-difference').map((chip) => plain(chip));
    expect(differences).toEqual(['€0.00', '-€2.50', '-€12.50']);
    // A screen reader hears the sentence, not the colour.
    expect(plain(table.getAllByTestId('settlement-difference')[1].closest('[data-field]'))).toContain('Settled €2.50 less than the card sales');
    expect(table.getAllByTestId('settlement-status').map((chip) => plain(chip))).toEqual(['Matched', 'Short', 'Not yet settled']);
    expect(within(screen.getByTestId('settlements-payouts')).getByText('PO-1')).toBeTruthy();
    expect(lastParams(api.calls, '/api/settlements/reconciliation/')).toEqual({ period: 'current_month' });
  });

  it('filters the machine-days with the status chips', async () => {
    serve();
    renderPage();
    const table = await grid();
    await table.findByText('Nov 3, 2026');
    const short = screen.getByTestId('settlement-status-short');
    expect(plain(short)).toBe('Short: 1');
    fireEvent.click(short);
    await waitFor(() => expect(table.getAllByTestId('settlement-status').map((chip) => plain(chip))).toEqual(['Short']));
    expect(short.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('settlement-status-all'));
    await waitFor(() => expect(table.getAllByTestId('settlement-status')).toHaveLength(3));
  });

  it('shows the imported files with their corrections', async () => {
    serve();
    renderPage();
    const history = within(await screen.findByTestId('settlement-imports'));
    await history.findByText('PO-1 corrected by second.csv');
    expect(history.getByText('Corrects first.csv')).toBeTruthy();
  });

  it('imports a file read as base64 and says what it did; the same file again changed nothing', async () => {
    let replayed = false;
    const api = serve({
      'POST /api/settlements/imports/': () => {
        const reply = { status: replayed ? 200 : 201, body: { message: 'ok', code: 'ok', data: { import: fileImport('nov', { payouts: ['PO-7', 'PO-8'], rows: 4 }), replayed } } };
        replayed = true;
        return reply;
      },
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('settlement-import-open'));
    const dialog = within(await screen.findByTestId('settlement-import-dialog'));
    await waitFor(() => expect(plain(dialog.getByTestId('settlement-import-mapping'))).toBe('Generic'));
    const file = new File(['date,terminal_id,gross,payout_reference\n2026-11-02,T-0001,12.50,PO-7\n'], 'nov.csv', { type: 'text/csv' });
    fireEvent.change(dialog.getByTestId('settlement-file-input'), { target: { files: [file] } });
    await waitFor(() => expect(plain(dialog.getByTestId('settlement-file-name'))).toBe('nov.csv'));
    fireEvent.click(screen.getByTestId('settlement-import-submit'));
    expect(plain(await dialog.findByTestId('settlement-import-done'))).toContain('Imported 4 rows of nov.csv.Payouts: PO-7, PO-8.');
    const sent = api.calls.find((call: Call) => call.method === 'POST')?.body as Record<string, string>;
    expect(sent.mapping_id).toBe('map1');
    expect(sent.file_name).toBe('nov.csv');
    expect(atob(sent.content_base64)).toContain('T-0001,12.50,PO-7');

    fireEvent.change(dialog.getByTestId('settlement-file-input'), { target: { files: [file] } });
    await waitFor(() => expect(dialog.queryByTestId('settlement-import-done')).toBeNull());
    await waitFor(() => expect((screen.getByTestId('settlement-import-submit') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('settlement-import-submit'));
    expect(plain(await dialog.findByTestId('settlement-import-replayed'))).toContain('nov.csv was already imported on');
  });

  it('lists a refused file’s problems by row and column and says nothing was imported', async () => {
    serve({
      'POST /api/settlements/imports/': () => ({
        status: 400,
        body: { message: 'Invalid input', errors: { 'rows.12.gross': ['Row 12, column "Gross amount": "1,5x" is not an amount.'], 'rows.4.terminal': ['Row 4, column "terminal_id": no machine has the terminal id "T-9".'] } },
      }),
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('settlement-import-open'));
    const dialog = within(await screen.findByTestId('settlement-import-dialog'));
    await waitFor(() => expect(plain(dialog.getByTestId('settlement-import-mapping'))).toBe('Generic'));
    fireEvent.change(dialog.getByTestId('settlement-file-input'), { target: { files: [new File(['x'], 'bad.csv')] } });
    await waitFor(() => expect(plain(dialog.getByTestId('settlement-file-name'))).toBe('bad.csv'));
    fireEvent.click(screen.getByTestId('settlement-import-submit'));
    const problems = await dialog.findByTestId('settlement-import-problems');
    expect(plain(problems)).toContain('Nothing was imported: the file has 2 problems.');
    expect(within(problems).getAllByTestId('settlement-import-problem').map((item) => plain(item))).toEqual([
      'Row 4, column "terminal_id": no machine has the terminal id "T-9".',
      'Row 12, column "Gross amount": "1,5x" is not an amount.',
    ]);
  });

  it('without the import key, offers neither the import nor the mappings', async () => {
    const api = serve();
    renderPage(['reports.settlements.list']);
    await (await grid()).findByText('Nov 3, 2026');
    expect(screen.queryByTestId('settlement-import-open')).toBeNull();
    expect(screen.queryByTestId('settlement-mappings')).toBeNull();
    expect(screen.queryByTestId('settlements-export')).toBeNull();
    expect(api.calls.some((call) => call.path === '/api/settlements/mappings/')).toBe(false);
  });

  it('exports the reconciliation of the filters with the export key, and only with it', async () => {
    const api = serve(queuedExport('/api/settlements/reconciliation/export/', 'settlements.csv'));
    renderPage([...ALL, 'reports.settlements.export'], '/report/card-settlements?machines=m1');
    fireEvent.click(await screen.findByTestId('settlements-export'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export CSV' }));
    expect(await screen.findByTestId('export-job')).toBeTruthy();
    expect(lastParams(api.calls, '/api/settlements/reconciliation/export/')).toEqual({ period: 'current_month', machines: 'm1', format: 'csv' });
  });

  it('with the export key alone, offers the export and says the screen shows nothing else', async () => {
    const api = serve();
    renderPage(['reports.settlements.export']);
    expect(await screen.findByTestId('settlements-export-only')).toBeTruthy();
    expect(screen.getByTestId('settlements-export')).toBeTruthy();
    expect(api.calls.some((call) => call.path === '/api/settlements/reconciliation/')).toBe(false);
  });

  it('creates a mapping from the generic format', async () => {
    const api = serve({ 'POST /api/settlements/mappings/': () => ({ status: 201, body: { message: 'ok', code: 'ok', data: mapping } }) });
    renderPage();
    fireEvent.click(await screen.findByTestId('settlement-mapping-new'));
    const form = await screen.findByTestId('settlement-mapping-form');
    fireEvent.change(within(form).getByRole('textbox', { name: /^Processor/ }), { target: { value: 'Acme Pay' } });
    fireEvent.click(within(form).getByTestId('settlement-mapping-generic'));
    await act(async () => {
      fireEvent.click(within(form).getByTestId('settlement-mapping-submit'));
    });
    await waitFor(() => expect(api.calls.some((call) => call.method === 'POST' && call.path === '/api/settlements/mappings/')).toBe(true));
    const body = api.calls.find((call) => call.method === 'POST' && call.path === '/api/settlements/mappings/')?.body;
    expect(body).toEqual({
      name: 'Acme Pay',
      columns: { date: 'date', terminal: 'terminal_id', gross: 'gross', payout_reference: 'payout_reference', fees: 'fees', net: 'net', count: 'transactions', currency: 'currency' },
      date_format: '%Y-%m-%d',
      decimal_separator: '.',
      amounts_in_minor: false,
    });
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    serve();
    renderPage();
    const table = await grid();
    await table.findByText('3 nov. 2026');
    expect(table.getAllByTestId('settlement-status').map((chip) => plain(chip))).toEqual(['Concordant', 'Manque', 'Pas encore réglé']);
    expect(plain(table.getAllByTestId('settlement-difference')[1])).toBe('-2,50 €');
  });
});
