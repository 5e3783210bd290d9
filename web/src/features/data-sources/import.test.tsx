import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HistoryImport, HistoryImportPreview, HistoryMapping } from '../../api/types';
import { problemsOf } from '../../components/form';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, plain, type Routes } from '../../test/report-api';
import {
  canBook,
  emptyMappingValues,
  mappingSchema,
  PART_BYTES,
  partCount,
  partOf,
  resumePart,
  splitValues,
  toMappingBody,
  valuesFromMapping,
} from './import-logic';
import DataSourcesPage from './pages/data-sources-page';
import ImportPage from './pages/import-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

const BASE = '/api/settings/data-sources/';
const IMPORTS = `${BASE}imports/`;
const MAPPINGS = `${BASE}mappings/`;
const KEY = 'settings.data_sources.import';
const MIB = 1024 * 1024;
const URL_PATH = '/settings/data-sources/import';

const preview: HistoryImportPreview = {
  rows: 2_000_000,
  sales: 1_999_000,
  not_sales: 600,
  bad_rows: 0,
  unmatched_rows: 400,
  first_day: '2025-01-01',
  last_day: '2025-12-31',
  months: [
    { machine_id: 'm1', machine_name: 'Lobby snack', month: '2025-01', vends: 812, quantity: 830, revenue_minor: 145020, cash_minor: 50000, cashless_minor: 95020, currency: 'EUR', decimal_places: 2 },
    { machine_id: 'm2', machine_name: 'Tokyo drinks', month: '2025-02', vends: 10, quantity: 12, revenue_minor: 1500, cash_minor: 0, cashless_minor: 1500, currency: 'JPY', decimal_places: 0 },
  ],
  unmatched: [
    { kind: 'machine', value: '54999', rows: 300, first_line: 17 },
    { kind: 'audit_machine', value: 'Gym snack', rows: 100, first_line: 40 },
  ],
  errors: [],
};

function historyImport(patch: Partial<HistoryImport> = {}): HistoryImport {
  return {
    id: 'imp1',
    file_name: 'nayax-2025.csv',
    mapping_id: 'nayax',
    mapping_name: 'Nayax Core export',
    status: 'previewed',
    progress: 100,
    parts: 3,
    bytes: 11 * MIB + 5,
    created_by: '01USER',
    created_by_name: 'Ada Admin',
    created_at: '2026-11-20T08:00:00Z',
    updated_at: '2026-11-20T08:05:00Z',
    error: null,
    result: null,
    version: 1,
    ...patch,
  };
}

const mapping: HistoryMapping = {
  id: 'map1',
  name: 'Vendon export',
  columns: {
    date: 'Date',
    time: 'Time',
    machine: 'Machine',
    product: 'SKU',
    selection: 'Selection',
    quantity: 'Qty',
    unit_price: 'Price',
    amount: null,
    payment: 'Payment',
    transaction_id: 'Id',
    status: null,
  },
  date_format: '%d/%m/%Y',
  time_format: '%H:%M:%S',
  zone: 'machine',
  decimal_separator: ',',
  cash_values: ['cash', '3'],
  skip_values: ['cancelled', 'declined', 'void', 'refund'],
  created_at: '2026-11-01T08:00:00Z',
  updated_at: '2026-11-01T08:00:00Z',
  version: 2,
};

function serve(routes: Routes = {}) {
  return fakeApi({ [`GET ${IMPORTS}`]: data([]), [`GET ${MAPPINGS}`]: data([mapping]), ...routes });
}

function renderPage(url = URL_PATH, modules: string[] = [KEY]) {
  const routes: RouteObject[] = [{ path: URL_PATH, element: <ImportPage />, handle: { title: 'dataSources.imports.title' } }];
  return renderRoutes(routes, url, signedIn(modules));
}

const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((call) => call.method === method && call.path === path);
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const helperOf = (field: HTMLInputElement) => field.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent;
/** A file of `size` bytes. */
const fileOf = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'text/csv' });
const created = (item: HistoryImport) => () => ({ status: 201, body: { message: 'Import created', data: item } });
const accepted = (item: HistoryImport) => () => ({ status: 202, body: { message: 'Accepted', data: item } });

const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('the history import’s rules', () => {
  it('cuts a file in parts of 5 MiB, the last one what is left', () => {
    expect(PART_BYTES).toBe(5 * MIB);
    expect(partCount(1)).toBe(1);
    expect(partCount(5 * MIB)).toBe(1);
    expect(partCount(5 * MIB + 1)).toBe(2);
    const file = fileOf('big.csv', 11 * MIB + 5);
    expect([0, 1, 2].map((n) => partOf(file, n).size)).toEqual([5 * MIB, 5 * MIB, MIB + 5]);
  });

  it('goes on with an unfinished upload only with the same file', () => {
    const unfinished = { file_name: 'big.csv', parts: 2, bytes: 10 * MIB };
    expect(resumePart(unfinished, { name: 'big.csv', size: 11 * MIB })).toBe(2);
    expect(resumePart(unfinished, { name: 'other.csv', size: 11 * MIB })).toBeNull();
    expect(resumePart(unfinished, { name: 'big.csv', size: 9 * MIB })).toBeNull();
    expect(resumePart({ ...unfinished, bytes: 7 }, { name: 'big.csv', size: 11 * MIB })).toBeNull();
  });

  it('books a file with rows in error only when they are skipped', () => {
    const bad = { status: 'previewed' as const, preview: { ...preview, bad_rows: 3 } };
    expect(canBook(bad, false)).toBe(false);
    expect(canBook(bad, true)).toBe(true);
    expect(canBook({ status: 'previewed', preview }, false)).toBe(true);
    expect(canBook({ status: 'booking', preview }, true)).toBe(false);
  });

  it('sends a mapping with its empty columns as none, its lists split, the defaults when empty', () => {
    expect(toMappingBody(valuesFromMapping(mapping), 2)).toEqual({
      name: 'Vendon export',
      columns: mapping.columns,
      date_format: '%d/%m/%Y',
      time_format: '%H:%M:%S',
      zone: 'machine',
      decimal_separator: ',',
      cash_values: ['cash', '3'],
      skip_values: ['cancelled', 'declined', 'void', 'refund'],
      version: 2,
    });
    const values = { ...emptyMappingValues(), name: ' Vendon ', date_format: ' ', zone: '', cash_values: 'Cash, 3,, cash ' };
    const body = toMappingBody({ ...values, columns: { ...values.columns, date: ' Date ', machine: 'Machine', selection: 'Sel', amount: 'Total' } });
    expect(body).toMatchObject({ name: 'Vendon', date_format: '%Y-%m-%d %H:%M:%S', zone: 'machine', cash_values: ['Cash', '3'] });
    expect(body.columns).toMatchObject({ date: 'Date', product: null, selection: 'Sel', unit_price: null, amount: 'Total', time: null });
    expect('version' in body).toBe(false);
    expect(splitValues(' a , ,b,A')).toEqual(['a', 'b']);
    // A column the form does not show stays as it was read.
    const read = { ...mapping.columns, currency: 'Currency' } as HistoryMapping['columns'];
    expect(toMappingBody(valuesFromMapping({ ...mapping, columns: read }), 2, read).columns).toEqual(read);
  });

  it('asks the date, the machine, the product or selection, the price or amount', () => {
    expect(problemsOf(mappingSchema, valuesFromMapping(mapping))).toEqual({});
    expect(problemsOf(mappingSchema, emptyMappingValues())).toEqual({
      name: { key: 'validation.required' },
      'columns.date': { key: 'validation.required' },
      'columns.machine': { key: 'validation.required' },
      'columns.product': { key: 'dataSources.imports.productOrSelection' },
      'columns.unit_price': { key: 'dataSources.imports.priceOrAmount' },
    });
  });
});

describe('the history import screen', SLOW, () => {
  it('uploads a file in parts of 5 MiB, in order, as raw bytes; then previews it', async () => {
    let reads = 0;
    const api = serve({
      [`POST ${IMPORTS}`]: created(historyImport({ status: 'uploading', progress: 0, parts: 0, bytes: 0 })),
      [`PUT ${IMPORTS}imp1/parts/0/`]: data(historyImport({ status: 'uploading', parts: 1 })),
      [`PUT ${IMPORTS}imp1/parts/1/`]: data(historyImport({ status: 'uploading', parts: 2 })),
      [`PUT ${IMPORTS}imp1/parts/2/`]: data(historyImport({ status: 'uploading', parts: 3 })),
      [`POST ${IMPORTS}imp1/preview/`]: accepted(historyImport({ status: 'previewing', progress: 0 })),
      // Read while it is being read, then once it is.
      [`GET ${IMPORTS}imp1/`]: () => {
        reads += 1;
        return reads === 1 ? data(historyImport({ status: 'previewing', progress: 40 }))() : data(historyImport({ preview }))();
      },
    });
    const router = renderPage();
    await waitFor(() => expect(plain(screen.getByTestId('import-reading'))).toBe('Nayax Core export'));
    expect((screen.getByTestId('import-start') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input('import-file-input'), { target: { files: [fileOf('nayax-2025.csv', 11 * MIB + 5)] } });
    expect(plain(screen.getByTestId('import-file-name'))).toBe('nayax-2025.csv (11 MB)');
    fireEvent.click(screen.getByTestId('import-start'));

    await waitFor(() => expect(calls(api, 'POST', `${IMPORTS}imp1/preview/`)).toHaveLength(1));
    expect(calls(api, 'POST', IMPORTS)[0].body).toEqual({ file_name: 'nayax-2025.csv', mapping_id: 'nayax' });
    const puts = api.calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => call.path)).toEqual([0, 1, 2].map((n) => `${IMPORTS}imp1/parts/${n}/`));
    expect(puts.map((call) => (call.body as Blob).size)).toEqual([5 * MIB, 5 * MIB, MIB + 5]);
    for (const put of puts) expect(put.headers['content-type']).toBe('application/octet-stream');
    // The parts come before the preview, the import before its parts.
    const order = api.calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`);
    expect(order[0]).toBe(`POST ${IMPORTS}`);
    expect(order.at(-1)).toBe(`POST ${IMPORTS}imp1/preview/`);

    // The import opens, read again until its preview is in.
    await waitFor(() => expect(router.state.location.search).toBe('?import=imp1'));
    const job = await screen.findByTestId('import-job');
    await waitFor(() => expect(plain(job)).toContain('Reading the file… 40 %'));
    expect(within(job).getByRole('progressbar', { name: 'Progress of nayax-2025.csv' }).getAttribute('aria-valuenow')).toBe('40');
    await screen.findByTestId('import-preview', {}, { timeout: 6_000 });
    expect(screen.queryByTestId('import-job')).toBeNull();
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(plain(screen.getByTestId('import-file-name'))).toBe('No file chosen');
  });

  it('shows the upload’s progress, and goes on from the next part after a failure', async () => {
    let failOnce = true;
    const api = serve({
      [`POST ${IMPORTS}`]: created(historyImport({ status: 'uploading', progress: 0, parts: 0, bytes: 0 })),
      [`PUT ${IMPORTS}imp1/parts/0/`]: data(historyImport({ status: 'uploading', parts: 1 })),
      [`PUT ${IMPORTS}imp1/parts/1/`]: () => {
        if (!failOnce) return data(historyImport({ status: 'uploading', parts: 2 }))();
        failOnce = false;
        return { status: 413, body: { message: 'The part is larger than 5 MiB', errors: {} } };
      },
      [`POST ${IMPORTS}imp1/preview/`]: accepted(historyImport({ status: 'previewing', progress: 0 })),
      [`GET ${IMPORTS}imp1/`]: data(historyImport({ status: 'previewing', progress: 5 })),
    });
    renderPage();
    fireEvent.change(await screen.findByTestId('import-file-input'), { target: { files: [fileOf('big.csv', 6 * MIB)] } });
    fireEvent.click(screen.getByTestId('import-start'));
    const failure = await screen.findByTestId('upload-failure');
    expect(plain(failure)).toContain('The upload of big.csv failed: The part is larger than 5 MiB');
    expect(calls(api, 'POST', IMPORTS)).toHaveLength(1);

    fireEvent.click(screen.getByTestId('upload-retry'));
    await waitFor(() => expect(calls(api, 'POST', `${IMPORTS}imp1/preview/`)).toHaveLength(1));
    // No new import, part 0 not sent again.
    expect(calls(api, 'POST', IMPORTS)).toHaveLength(1);
    expect(calls(api, 'PUT', `${IMPORTS}imp1/parts/0/`)).toHaveLength(1);
    expect(calls(api, 'PUT', `${IMPORTS}imp1/parts/1/`)).toHaveLength(2);
    await screen.findByTestId('import-job');
    expect(screen.queryByTestId('upload-failure')).toBeNull();
  });

  it('refuses an empty file', async () => {
    const api = serve();
    renderPage();
    fireEvent.change(await screen.findByTestId('import-file-input'), { target: { files: [fileOf('empty.csv', 0)] } });
    expect(plain(screen.getByTestId('import-file-problem'))).toBe('The file is empty.');
    expect((screen.getByTestId('import-start') as HTMLButtonElement).disabled).toBe(true);
    expect(calls(api, 'POST', IMPORTS)).toHaveLength(0);
  });

  it('reads through a saved mapping', async () => {
    const api = serve({
      [`POST ${IMPORTS}`]: created(historyImport({ mapping_id: 'map1', mapping_name: 'Vendon export', status: 'uploading', parts: 0, bytes: 0 })),
      [`PUT ${IMPORTS}imp1/parts/0/`]: data(historyImport({ status: 'uploading', parts: 1 })),
      [`POST ${IMPORTS}imp1/preview/`]: accepted(historyImport({ status: 'previewing', progress: 0 })),
      [`GET ${IMPORTS}imp1/`]: data(historyImport({ status: 'previewing', progress: 0 })),
    });
    renderPage();
    await waitFor(() => expect(plain(screen.getByTestId('import-reading'))).toBe('Nayax Core export'));
    fireEvent.mouseDown(screen.getByTestId('import-reading'));
    fireEvent.click(await screen.findByRole('option', { name: 'Vendon export' }));
    fireEvent.change(input('import-file-input'), { target: { files: [fileOf('vendon.csv', 100)] } });
    fireEvent.click(screen.getByTestId('import-start'));
    await waitFor(() => expect(calls(api, 'POST', `${IMPORTS}imp1/preview/`)).toHaveLength(1));
    expect(calls(api, 'POST', IMPORTS)[0].body).toEqual({ file_name: 'vendon.csv', mapping_id: 'map1' });
    expect((calls(api, 'PUT', `${IMPORTS}imp1/parts/0/`)[0].body as Blob).size).toBe(100);
  });

  it('shows the preview’s counts, its machine-months with their money, the unmatched rows', async () => {
    serve({ [`GET ${IMPORTS}imp1/`]: data(historyImport({ preview })) });
    renderPage(`${URL_PATH}?import=imp1`);
    const detail = within(await screen.findByTestId('import-preview'));
    expect(plain(detail.getByTestId('preview-rows'))).toBe('Rows2,000,000');
    expect(plain(detail.getByTestId('preview-sales'))).toBe('Sales1,999,000');
    expect(plain(detail.getByTestId('preview-not-sales'))).toBe('Not sales600');
    expect(plain(detail.getByTestId('preview-bad-rows'))).toBe('Rows in error0');
    expect(plain(detail.getByTestId('preview-unmatched-rows'))).toBe('Unmatched rows400');
    expect(plain(detail.getByTestId('preview-first-day'))).toBe('First dayJan 1, 2025');
    expect(plain(detail.getByTestId('preview-last-day'))).toBe('Last dayDec 31, 2025');
    expect(plain(screen.getByTestId('import-detail'))).toContain('Nayax Core export · 11 MB · by Ada Admin');
    expect(screen.getByTestId('import-status').textContent).toBe('Ready to book');

    const months = within(screen.getByTestId('import-months'));
    const headers = months.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Machine', 'Month', 'Vends', 'Quantity', 'Revenue', 'Cash', 'Cashless']);
    const lobby = months.getByText('Lobby snack').closest('[role="row"]') as HTMLElement;
    expect(within(lobby).getByText('Jan 2025')).toBeTruthy();
    expect(within(lobby).getByText('812')).toBeTruthy();
    expect(within(lobby).getByText('€1,450.20')).toBeTruthy();
    expect(within(lobby).getByText('€500.00')).toBeTruthy();
    expect(within(lobby).getByText('€950.20')).toBeTruthy();
    // Yen without decimals: 1500 minor units are ¥1,500.
    const tokyo = months.getByText('Tokyo drinks').closest('[role="row"]') as HTMLElement;
    expect(within(tokyo).getAllByText('¥1,500')).toHaveLength(2);

    const unmatched = within(screen.getByTestId('import-unmatched'));
    const machineRow = unmatched.getByText('Unknown machine').closest('[role="row"]') as HTMLElement;
    expect(within(machineRow).getByText('54999')).toBeTruthy();
    expect(within(machineRow).getByText('300')).toBeTruthy();
    expect(within(machineRow).getByText('17')).toBeTruthy();
    expect(unmatched.getByText('Sales from its audits')).toBeTruthy();
    // No rows in error: neither their table nor a checkbox; Book is there.
    expect(screen.queryByTestId('import-errors')).toBeNull();
    expect(screen.queryByTestId('import-skip-bad-rows')).toBeNull();
    expect((screen.getByTestId('import-book') as HTMLButtonElement).disabled).toBe(false);
  });

  it('books a file with rows in error only once “skip” is ticked, and shows the result', async () => {
    const bad = { ...preview, bad_rows: 120, errors: [{ line: 12, column: 'Price', message: '"1,2x" is not an amount' }] };
    let booked = false;
    const api = serve({
      [`GET ${IMPORTS}imp1/`]: () =>
        data(booked ? historyImport({ status: 'booked', preview: bad, result: { stored: 1_998_880, already: 10, skipped: 120, seconds: 41.2 } }) : historyImport({ preview: bad }))(),
      [`POST ${IMPORTS}imp1/book/`]: () => {
        booked = true;
        return accepted(historyImport({ status: 'booking', progress: 0 }))();
      },
    });
    renderPage(`${URL_PATH}?import=imp1`);
    const errors = within(await screen.findByTestId('import-errors'));
    expect(errors.getByText('The first 1 of 120 rows in error')).toBeTruthy();
    const row = errors.getByText('"1,2x" is not an amount').closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('12')).toBeTruthy();
    expect(within(row).getByText('Price')).toBeTruthy();
    expect(plain(screen.getByTestId('import-bad-rows-block'))).toContain('books nothing unless they are skipped');

    const book = screen.getByTestId('import-book') as HTMLButtonElement;
    expect(book.disabled).toBe(true);
    const skip = screen.getByRole('checkbox', { name: 'Skip the 120 rows in error' });
    fireEvent.click(skip);
    expect(book.disabled).toBe(false);
    fireEvent.click(skip);
    expect(book.disabled).toBe(true);
    fireEvent.click(skip);
    fireEvent.click(book);
    await waitFor(() => expect(calls(api, 'POST', `${IMPORTS}imp1/book/`)).toHaveLength(1));
    expect(calls(api, 'POST', `${IMPORTS}imp1/book/`)[0].body).toEqual({ skip_bad_rows: true });
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Booking started'));

    const result = await screen.findByTestId('import-result', {}, { timeout: 6_000 });
    expect(plain(within(result).getByTestId('result-stored'))).toBe('Stored1,998,880');
    expect(plain(within(result).getByTestId('result-already'))).toBe('Already booked10');
    expect(plain(within(result).getByTestId('result-skipped'))).toBe('Skipped120');
    expect(plain(within(result).getByTestId('result-seconds'))).toBe('Time taken41.2 s');
    expect(screen.queryByTestId('import-book')).toBeNull();
  });

  it('says why an import failed', async () => {
    serve({ [`GET ${IMPORTS}imp1/`]: data(historyImport({ status: 'failed', error: 'The file is neither CSV nor XLSX.' })) });
    renderPage(`${URL_PATH}?import=imp1`);
    const failure = await screen.findByTestId('import-failure');
    expect(plain(failure)).toContain('The import failed');
    expect(plain(failure)).toContain('The file is neither CSV nor XLSX.');
  });

  it('lists the past imports with their progress and result, opens and deletes one', async () => {
    const api = serve({
      [`GET ${IMPORTS}`]: data([
        historyImport({ id: 'imp2', file_name: 'vendon.csv', mapping_id: 'map1', mapping_name: 'Vendon export', status: 'booking', progress: 55 }),
        // The name, when `created_by` is the user's id.
        historyImport({ status: 'booked', created_by: 'u1', created_by_name: 'Ada Admin', result: { stored: 1_999_990, already: 10, skipped: 0, seconds: 41.2 } }),
      ]),
      [`GET ${IMPORTS}imp1/`]: data(historyImport({ status: 'booked', preview, result: { stored: 1_999_990, already: 10, skipped: 0, seconds: 41.2 } })),
      [`DELETE ${IMPORTS}imp1/`]: () => ({ status: 204 }),
    });
    const router = renderPage();
    const list = within(await screen.findByTestId('imports'));
    await list.findByText('vendon.csv');
    const running = list.getByText('vendon.csv').closest('[role="row"]') as HTMLElement;
    expect(within(running).getByText('Vendon export')).toBeTruthy();
    expect(within(running).getByTestId('import-status').textContent).toBe('Booking');
    expect(within(running).getByRole('progressbar', { name: 'Progress of vendon.csv' }).getAttribute('aria-valuenow')).toBe('55');
    const done = list.getByText('nayax-2025.csv').closest('[role="row"]') as HTMLElement;
    expect(within(done).getByText('1,999,990 stored · 10 already booked · 0 skipped')).toBeTruthy();
    expect(within(done).getByText('Ada Admin')).toBeTruthy();

    fireEvent.click(within(done).getByRole('button', { name: 'Open: nayax-2025.csv' }));
    await screen.findByTestId('import-result');
    expect(router.state.location.search).toBe('?import=imp1');

    fireEvent.click(within(done).getByRole('button', { name: 'Delete: nayax-2025.csv' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('the sales it booked stay booked');
    fireEvent.click(screen.getByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(calls(api, 'DELETE', `${IMPORTS}imp1/`)).toHaveLength(1));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Import deleted'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('goes on with an unfinished upload when the same file is chosen', async () => {
    const api = serve({
      [`GET ${IMPORTS}imp1/`]: data(historyImport({ status: 'uploading', parts: 1, bytes: 5 * MIB, progress: 0 })),
      [`PUT ${IMPORTS}imp1/parts/1/`]: data(historyImport({ status: 'uploading', parts: 2 })),
      [`POST ${IMPORTS}imp1/preview/`]: accepted(historyImport({ status: 'previewing', progress: 0 })),
    });
    renderPage(`${URL_PATH}?import=imp1`);
    expect(plain(await screen.findByTestId('import-unfinished'))).toContain('did not finish (5 MB received)');
    fireEvent.change(input('import-resume-input'), { target: { files: [fileOf('other.csv', 6 * MIB)] } });
    expect(plain(screen.getByTestId('import-resume-problem'))).toBe('other.csv is not the file of this import, or not all of it.');
    fireEvent.change(input('import-resume-input'), { target: { files: [fileOf('nayax-2025.csv', 6 * MIB)] } });
    await waitFor(() => expect(calls(api, 'POST', `${IMPORTS}imp1/preview/`)).toHaveLength(1));
    expect(calls(api, 'PUT', `${IMPORTS}imp1/parts/0/`)).toHaveLength(0);
    expect((calls(api, 'PUT', `${IMPORTS}imp1/parts/1/`)[0].body as Blob).size).toBe(MIB);
    expect(calls(api, 'POST', IMPORTS)).toHaveLength(0);
  });

  it('creates a mapping, and shows the server’s field errors on its fields', async () => {
    const api = serve({
      [`POST ${MAPPINGS}`]: () => ({
        status: 400,
        body: { message: 'Invalid input', errors: { 'columns.product': ['Name the product’s column or the selection’s.'], zone: ['"Mars/Base" is not a time zone.'] } },
      }),
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('history-mapping-new'));
    const form = within(await screen.findByTestId('history-mapping-form'));
    expect(input('history-mapping-zone').value).toBe('machine');
    expect(input('history-mapping-cash-values').value).toBe('cash, 3');
    // The form's own checks first: nothing sent.
    fireEvent.click(form.getByTestId('history-mapping-submit'));
    await waitFor(() => expect(helperOf(input('history-mapping-column-product'))).toBe('Give the product’s column or the selection’s.'));
    expect(helperOf(input('history-mapping-column-unit_price'))).toBe('Give the unit price’s column or the amount’s.');
    expect(calls(api, 'POST', MAPPINGS)).toHaveLength(0);

    fireEvent.change(input('history-mapping-name'), { target: { value: 'Vendon' } });
    for (const [field, value] of Object.entries({ date: 'Date', machine: 'Machine', product: 'SKU', amount: 'Total' })) {
      fireEvent.change(input(`history-mapping-column-${field}`), { target: { value } });
    }
    fireEvent.change(input('history-mapping-zone'), { target: { value: 'Mars/Base' } });
    fireEvent.change(input('history-mapping-skip-values'), { target: { value: 'void, refund' } });
    fireEvent.click(form.getByTestId('history-mapping-submit'));
    await waitFor(() => expect(calls(api, 'POST', MAPPINGS)).toHaveLength(1));
    expect(calls(api, 'POST', MAPPINGS)[0].body).toEqual({
      name: 'Vendon',
      columns: { date: 'Date', time: null, machine: 'Machine', product: 'SKU', selection: null, quantity: null, unit_price: null, amount: 'Total', payment: null, transaction_id: null, status: null },
      date_format: '%Y-%m-%d %H:%M:%S',
      time_format: '%H:%M:%S',
      zone: 'Mars/Base',
      decimal_separator: '.',
      cash_values: ['cash', '3'],
      skip_values: ['void', 'refund'],
    });
    await waitFor(() => expect(helperOf(input('history-mapping-column-product'))).toBe('Name the product’s column or the selection’s.'));
    expect(helperOf(input('history-mapping-zone'))).toBe('"Mars/Base" is not a time zone.');
    expect(toasts.error).toHaveBeenCalledWith('The mapping could not be saved.');
  });

  it('edits a mapping with the version read, and deletes one', async () => {
    const api = serve({
      [`PUT ${MAPPINGS}map1/`]: (call) => ({ status: 200, body: { message: 'Mapping updated', data: { ...mapping, ...(call.body as object), version: 3 } } }),
      [`DELETE ${MAPPINGS}map1/`]: () => ({ status: 204 }),
    });
    renderPage();
    const mappings = within(await screen.findByTestId('history-mappings'));
    await mappings.findByText('Vendon export');
    expect(mappings.getByText('Date · Time · Machine · SKU · Selection · Qty · Price · Payment · Id')).toBeTruthy();
    fireEvent.click(mappings.getByRole('button', { name: 'Edit: Vendon export' }));
    await screen.findByTestId('history-mapping-form');
    expect(input('history-mapping-column-unit_price').value).toBe('Price');
    expect(input('history-mapping-column-amount').value).toBe('');
    fireEvent.change(input('history-mapping-column-quantity'), { target: { value: 'Quantity' } });
    fireEvent.click(screen.getByTestId('history-mapping-submit'));
    await waitFor(() => expect(calls(api, 'PUT', `${MAPPINGS}map1/`)).toHaveLength(1));
    expect(calls(api, 'PUT', `${MAPPINGS}map1/`)[0].body).toMatchObject({ version: 2, columns: { quantity: 'Quantity', amount: null }, decimal_separator: ',' });
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Mapping saved'));

    fireEvent.click(mappings.getByRole('button', { name: 'Delete: Vendon export' }));
    fireEvent.click(await screen.findByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(calls(api, 'DELETE', `${MAPPINGS}map1/`)).toHaveLength(1));
  });

  it('says the import is an administrator’s when the server refuses it', async () => {
    serve({ [`GET ${IMPORTS}`]: () => ({ status: 403, body: { message: 'Forbidden', errors: {} } }) });
    renderPage();
    expect(plain(await screen.findByTestId('imports-refused'))).toContain('only a user who sees every machine opens it');
    expect(screen.queryByTestId('new-import')).toBeNull();
    expect(screen.queryByTestId('history-mappings')).toBeNull();
  });

  it('speaks French and Italian', async () => {
    await i18next.changeLanguage('fr');
    serve({ [`GET ${IMPORTS}imp1/`]: data(historyImport({ preview: { ...preview, bad_rows: 2 } })) });
    renderPage(`${URL_PATH}?import=imp1`);
    expect(await screen.findByRole('checkbox', { name: 'Ignorer les 2 lignes en erreur' })).toBeTruthy();
    expect(screen.getByTestId('import-book').textContent).toBe('Enregistrer');
    expect(screen.getByTestId('import-status').textContent).toBe('Prêt à enregistrer');
    await i18next.changeLanguage('it');
    await waitFor(() => expect(screen.getByTestId('import-book').textContent).toBe('Registra'));
    expect(screen.getByRole('checkbox', { name: 'Salta le 2 righe con errori' })).toBeTruthy();
  });
});

describe('the data sources screen’s way to the import', SLOW, () => {
  const renderSources = (modules: string[]) =>
    renderRoutes([{ path: '/settings/data-sources', element: <DataSourcesPage />, handle: { title: 'nav.dataSources' } }], '/settings/data-sources', signedIn(modules));

  it('offers “Import history” to whoever may import, and only to them', async () => {
    fakeApi({ [`GET ${BASE}`]: data([]) });
    renderSources(['settings.data_sources.list', KEY]);
    const link = await screen.findByRole('link', { name: 'Import history' });
    expect(link.getAttribute('href')).toBe('/settings/data-sources/import');
  });

  it('hides it without the key', async () => {
    fakeApi({ [`GET ${BASE}`]: data([]) });
    renderSources(['settings.data_sources.list']);
    await screen.findByTestId('sources-empty');
    expect(screen.queryByTestId('import-history')).toBeNull();
  });
});
