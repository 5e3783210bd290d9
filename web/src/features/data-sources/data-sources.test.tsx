import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataSource, InboxGroup } from '../../api/types';
import { problemsOf } from '../../components/form';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, plain, type Routes } from '../../test/report-api';
import {
  emptySourceValues,
  healthState,
  prettyBody,
  sourceSchema,
  toDataSourceForm,
  valuesFromSource,
  type SourceValues,
} from './data-sources-logic';
import DataSourcesPage from './pages/data-sources-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

const BASE = '/api/settings/data-sources/';
const INBOX = `${BASE}inbox/`;
const RETAKE = `${INBOX}retake/`;
const EVERY_KEY = ['settings.data_sources.list', 'settings.data_sources.new', 'settings.data_sources.edit', 'settings.data_sources.delete', 'settings.data_sources.inbox'];

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function source(patch: Partial<DataSource> = {}): DataSource {
  return {
    id: 'ds1',
    name: 'Nayax production',
    kind: 'nayax_sqs',
    region: 'eu-west-1',
    feeds: { transactions: 'https://sqs.eu-west-1.amazonaws.com/123456789012/tx', events: null, dex: 'https://sqs.eu-west-1.amazonaws.com/123456789012/dex' },
    access_key_id: 'AKIAEXAMPLE',
    has_secret_access_key: true,
    has_encryption_key: true,
    encryption_key_version: 3,
    inactive: false,
    health: {
      booked_today: 42,
      kept_today: 2,
      ignored_today: 1,
      failed_today: 0,
      last_message_at: minutesAgo(5),
      last_error: null,
      last_error_at: null,
      oldest_unbooked: null,
    },
    createdAt: '2026-11-01T08:00:00Z',
    updated_at: '2026-11-20T08:00:00Z',
    version: 7,
    ...patch,
  };
}

function group(patch: Partial<InboxGroup> = {}): InboxGroup {
  return {
    reason: 'unknown_machine',
    feed: 'transactions',
    nayax_machine_id: '942001',
    product_code: null,
    count: 3,
    deliveries: 4,
    first_seen: '2026-11-22T08:00:00Z',
    last_seen: '2026-11-23T09:30:00Z',
    sample_message_id: 'msg-3',
    sample_detail: 'No active machine has Nayax machine id 942001.',
    sample_body: '{"MachineID":942001,"Products":[{"Code":"A1","Price":1.5}]}',
    ...patch,
  };
}

const inbox: InboxGroup[] = [
  group(),
  group({ reason: 'unknown_product', nayax_machine_id: '942002', product_code: 'B7', count: 1, deliveries: 1, sample_message_id: 'msg-7', sample_body: 'not json at all' }),
  group({ reason: 'unreadable', feed: 'dex', nayax_machine_id: null, count: 1, deliveries: 2, sample_message_id: 'msg-9', sample_body: 'DXS*…' }),
];

function serve(routes: Routes = {}) {
  return fakeApi({ [`GET ${BASE}`]: data([source()]), [`GET ${INBOX}`]: data(inbox), ...routes });
}

function renderPage(modules: string[] = EVERY_KEY, url = '/settings/data-sources') {
  const routes: RouteObject[] = [{ path: '/settings/data-sources', element: <DataSourcesPage />, handle: { title: 'nav.dataSources' } }];
  return renderRoutes(routes, url, signedIn(modules));
}

const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((call) => call.method === method && call.path === path);
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const helperOf = (field: HTMLInputElement) => field.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent;

/** A saved source's reply. */
const saved = (call: Call) => ({ status: 200, body: { message: 'Data source updated successfully', code: 'data_source_updated', data: source({ version: 8, ...(call.body as object) }) } });

async function openEdit() {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit: Nayax production' }));
  return screen.findByTestId('source-dialog');
}

const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('the data-source form’s rules', () => {
  const stored = { secret_access_key: true, encryption_key: true };
  const values = (patch: Partial<SourceValues> = {}): SourceValues => ({ ...valuesFromSource(source()), ...patch });

  it('never prefills a secret, and sends one only when typed', () => {
    const start = valuesFromSource(source());
    expect(start.secret_access_key).toBe('');
    expect(start.encryption_key).toBe('');
    expect(start.access_key_id).toBe('AKIAEXAMPLE');
    expect(toDataSourceForm(start, 7)).toEqual({
      name: 'Nayax production',
      kind: 'nayax_sqs',
      region: 'eu-west-1',
      feeds: { transactions: 'https://sqs.eu-west-1.amazonaws.com/123456789012/tx', events: null, dex: 'https://sqs.eu-west-1.amazonaws.com/123456789012/dex' },
      access_key_id: 'AKIAEXAMPLE',
      encryption_key_version: 3,
      inactive: false,
      version: 7,
    });
    const typed = toDataSourceForm(values({ secret_access_key: ' wJalrXUtnFEMI/K7MDENG ', encryption_key: 'k3y', encryption_key_version: '4' }), 7);
    expect(typed).toMatchObject({ secret_access_key: 'wJalrXUtnFEMI/K7MDENG', encryption_key: 'k3y', encryption_key_version: 4 });
  });

  it('clears a secret with "", and the key’s version with the key', () => {
    const body = toDataSourceForm(values({ clear_secret_access_key: true, clear_encryption_key: true }), 7);
    expect(body.secret_access_key).toBe('');
    expect(body.encryption_key).toBe('');
    expect('encryption_key_version' in body).toBe(false);
  });

  it('checks the region, the queues and the key’s version as the server does, with the document’s limits', () => {
    const schema = sourceSchema(stored);
    expect(problemsOf(schema, values())).toEqual({});
    expect(
      problemsOf(schema, values({ name: ' ', region: 'EU West', feeds: { transactions: 'sqs queue', events: '', dex: '' }, encryption_key_version: '0' })),
    ).toEqual({
      name: { key: 'validation.required' },
      region: { key: 'dataSources.regionFormat' },
      'feeds.transactions': { key: 'dataSources.queueUrl' },
      encryption_key_version: { key: 'validation.range', values: { min: 1, max: 1000000 } },
    });
    expect(problemsOf(schema, values({ feeds: { transactions: '', events: ' ', dex: '' } })).feeds).toEqual({ key: 'dataSources.oneFeed' });
    expect(problemsOf(schema, values({ name: 'x'.repeat(151) })).name).toEqual({ key: 'validation.maxLength', values: { count: 150 } });
    // A stored key needs its version, unless it is cleared; a new key needs one too.
    expect(problemsOf(schema, values({ encryption_key_version: '' })).encryption_key_version).toEqual({ key: 'dataSources.keyVersionRequired' });
    expect(problemsOf(schema, values({ encryption_key_version: '', clear_encryption_key: true }))).toEqual({});
    const fresh = sourceSchema({ secret_access_key: false, encryption_key: false });
    const blank = { ...emptySourceValues(), name: 'New', region: 'eu-west-1', feeds: { transactions: 'https://sqs.eu-west-1.amazonaws.com/1/tx', events: '', dex: '' } };
    expect(problemsOf(fresh, blank)).toEqual({});
    expect(problemsOf(fresh, { ...blank, encryption_key: 'k3y' }).encryption_key_version).toEqual({ key: 'dataSources.keyVersionRequired' });
  });

  it('says how a source fares in one word', () => {
    expect(healthState(source())).toBe('receiving');
    expect(healthState(source({ inactive: true }))).toBe('inactive');
    expect(healthState(source({ health: { ...source().health, last_message_at: null } }))).toBe('waiting');
    expect(healthState(source({ health: { ...source().health, failed_today: 2 } }))).toBe('attention');
    expect(healthState(source({ health: { ...source().health, oldest_unbooked: minutesAgo(600) } }))).toBe('attention');
    expect(healthState(source({ health: { ...source().health, last_error: 'AccessDenied', last_error_at: minutesAgo(1) } }))).toBe('failing');
    // An error before the last message is history.
    expect(healthState(source({ health: { ...source().health, last_error: 'AccessDenied', last_error_at: minutesAgo(60) } }))).toBe('receiving');
  });

  it('lays out a JSON body, and leaves any other as it came', () => {
    expect(prettyBody('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyBody('DXS*1')).toBe('DXS*1');
  });
});

describe('data sources screen', SLOW, () => {
  it('shows each source’s health', async () => {
    serve({
      [`GET ${BASE}`]: data([
        source(),
        source({
          id: 'ds2',
          name: 'Nayax test',
          has_secret_access_key: false,
          has_encryption_key: false,
          encryption_key_version: null,
          health: { booked_today: 0, kept_today: 0, ignored_today: 0, failed_today: 3, last_message_at: minutesAgo(180), last_error: 'AccessDenied: not authorized to receive', last_error_at: minutesAgo(2), oldest_unbooked: minutesAgo(60 * 26) },
        }),
      ]),
    });
    renderPage();
    const cards = await screen.findAllByTestId('data-source');
    expect(cards).toHaveLength(2);
    const [good, bad] = cards.map((card) => within(card));
    expect(good.getByRole('heading', { name: 'Nayax production' })).toBeTruthy();
    expect(good.getByText('Nayax Core (Amazon SQS) · eu-west-1')).toBeTruthy();
    expect(good.getByTestId('source-state').textContent).toBe('Receiving');
    expect(good.getAllByTestId('source-feed').map((chip) => chip.textContent)).toEqual(['Transactions', 'DEX audits']);
    expect(good.getByTestId('source-last-message').textContent).toContain('5 minutes ago');
    expect(plain(good.getByTestId('source-booked'))).toBe('42Booked');
    expect(plain(good.getByTestId('source-kept'))).toBe('2Kept');
    expect(plain(good.getByTestId('source-failed'))).toBe('0Failed');
    expect(good.getByTestId('source-oldest-unbooked').textContent).toContain('None');
    expect(good.getByTestId('source-key-state').textContent).toContain('Stored, version 3');
    expect(good.queryByTestId('source-last-error')).toBeNull();

    expect(bad.getByTestId('source-state').textContent).toBe('Failing');
    expect(bad.getByTestId('source-last-message').textContent).toContain('3 hours ago');
    expect(bad.getByTestId('source-oldest-unbooked').textContent).toContain('yesterday');
    expect(bad.getByTestId('source-secret-state').textContent).toContain('Not set');
    const error = bad.getByTestId('source-last-error');
    expect(error.textContent).toContain('Last error, 2 minutes ago');
    expect(error.textContent).toContain('AccessDenied: not authorized to receive');
  });

  it('never prefills the secrets, and sends them only when typed', async () => {
    const api = serve({ [`PUT ${BASE}ds1/`]: saved });
    renderPage();
    const dialog = within(await openEdit());
    expect(input('source-name').value).toBe('Nayax production');
    expect(input('source-kind').value).toBe('Nayax Core (Amazon SQS)');
    expect(input('source-kind').readOnly).toBe(true);
    expect(input('source-access-key-id').value).toBe('AKIAEXAMPLE');
    for (const secret of ['source-secret-access-key', 'source-encryption-key']) {
      expect(input(secret).value).toBe('');
      expect(input(secret).type).toBe('password');
      expect(input(secret).autocomplete).toBe('new-password');
      expect(helperOf(input(secret))).toBe('Stored — leave empty to keep');
    }
    expect(input('source-encryption-key-version').value).toBe('3');

    // Saved untouched: the stored secrets stay (left out).
    fireEvent.click(dialog.getByTestId('source-submit'));
    await waitFor(() => expect(calls(api, 'PUT', `${BASE}ds1/`)).toHaveLength(1));
    const first = calls(api, 'PUT', `${BASE}ds1/`)[0].body as Record<string, unknown>;
    expect(first).toMatchObject({ name: 'Nayax production', access_key_id: 'AKIAEXAMPLE', encryption_key_version: 3, version: 7 });
    expect('secret_access_key' in first).toBe(false);
    expect('encryption_key' in first).toBe(false);
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Data source updated'));

    // Typed: sent.
    const again = within(await openEdit());
    fireEvent.change(input('source-secret-access-key'), { target: { value: 'wJalrXUtnFEMI' } });
    fireEvent.click(again.getByTestId('source-submit'));
    await waitFor(() => expect(calls(api, 'PUT', `${BASE}ds1/`)).toHaveLength(2));
    const second = calls(api, 'PUT', `${BASE}ds1/`)[1].body as Record<string, unknown>;
    expect(second.secret_access_key).toBe('wJalrXUtnFEMI');
    expect('encryption_key' in second).toBe(false);
  });

  it('clears a stored secret only on purpose, sending ""', async () => {
    const api = serve({ [`PUT ${BASE}ds1/`]: saved });
    renderPage();
    const dialog = within(await openEdit());
    fireEvent.click(dialog.getByRole('button', { name: 'Clear: Secret access key' }));
    expect(input('source-secret-access-key').disabled).toBe(true);
    expect(helperOf(input('source-secret-access-key'))).toBe('Cleared when you save');
    // Changed one's mind about the key: kept after all.
    fireEvent.click(dialog.getByRole('button', { name: 'Clear: Encryption key' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Keep: Encryption key' }));
    expect(helperOf(input('source-encryption-key'))).toBe('Stored — leave empty to keep');
    fireEvent.click(dialog.getByTestId('source-submit'));
    await waitFor(() => expect(calls(api, 'PUT', `${BASE}ds1/`)).toHaveLength(1));
    const body = calls(api, 'PUT', `${BASE}ds1/`)[0].body as Record<string, unknown>;
    expect(body.secret_access_key).toBe('');
    expect('encryption_key' in body).toBe(false);
  });

  it('clears the encryption key with its version', async () => {
    const api = serve({ [`PUT ${BASE}ds1/`]: saved });
    renderPage();
    const dialog = within(await openEdit());
    fireEvent.click(dialog.getByRole('button', { name: 'Clear: Encryption key' }));
    fireEvent.change(input('source-encryption-key-version'), { target: { value: '' } });
    fireEvent.click(dialog.getByTestId('source-submit'));
    await waitFor(() => expect(calls(api, 'PUT', `${BASE}ds1/`)).toHaveLength(1));
    const body = calls(api, 'PUT', `${BASE}ds1/`)[0].body as Record<string, unknown>;
    expect(body.encryption_key).toBe('');
    expect('encryption_key_version' in body).toBe(false);
    expect('secret_access_key' in body).toBe(false);
  });

  it('creates a source: at least one queue, then the server’s field errors on the fields', async () => {
    const api = serve({
      [`GET ${BASE}`]: data([]),
      [`POST ${BASE}`]: () => ({ status: 400, body: { message: 'Invalid input', errors: { 'feeds.events': ['Give the queue’s URL.'], region: ['Unknown region.'] } } }),
    });
    renderPage();
    expect((await screen.findByTestId('sources-empty')).textContent).toContain('No data source yet');
    fireEvent.click(screen.getByTestId('new-source'));
    const dialog = within(await screen.findByTestId('source-dialog'));
    // A new source has nothing stored: no hint, nothing to clear.
    expect(helperOf(input('source-secret-access-key'))).toBeUndefined();
    expect(dialog.queryByRole('button', { name: /^Clear/ })).toBeNull();
    fireEvent.change(input('source-name'), { target: { value: 'Nayax' } });
    fireEvent.change(input('source-region'), { target: { value: 'eu-west-1' } });
    fireEvent.click(dialog.getByTestId('source-submit'));
    await waitFor(() => expect(screen.getByTestId('source-feeds-message').textContent).toBe('Give at least one feed’s queue.'));
    expect(calls(api, 'POST', BASE)).toHaveLength(0);

    fireEvent.change(input('source-feed-events'), { target: { value: ' https://sqs.eu-west-1.amazonaws.com/1/events ' } });
    fireEvent.change(input('source-secret-access-key'), { target: { value: 'secret' } });
    fireEvent.click(dialog.getByTestId('source-submit'));
    await waitFor(() => expect(calls(api, 'POST', BASE)).toHaveLength(1));
    expect(calls(api, 'POST', BASE)[0].body).toEqual({
      name: 'Nayax',
      kind: 'nayax_sqs',
      region: 'eu-west-1',
      feeds: { transactions: null, events: 'https://sqs.eu-west-1.amazonaws.com/1/events', dex: null },
      access_key_id: '',
      secret_access_key: 'secret',
      inactive: false,
    });
    await waitFor(() => expect(helperOf(input('source-feed-events'))).toBe('Give the queue’s URL.'));
    expect(helperOf(input('source-region'))).toBe('Unknown region.');
    expect(toasts.error).toHaveBeenCalledWith('The data source could not be created.');
  });

  it('says when someone changed the source since it was read', async () => {
    serve({ [`PUT ${BASE}ds1/`]: () => ({ status: 409, body: { message: 'Version conflict', errors: {} } }) });
    renderPage();
    const dialog = within(await openEdit());
    fireEvent.click(dialog.getByTestId('source-submit'));
    await dialog.findByText('Someone else changed this record. Reload it and apply your changes again.');
  });

  it('deletes a source after a confirmation', async () => {
    const api = serve({ [`DELETE ${BASE}ds1/`]: () => ({ status: 200, body: { message: 'Data source deleted successfully', code: 'data_source_deleted' } }) });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete: Nayax production' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('the messages it kept stay in the inbox');
    fireEvent.click(screen.getByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(calls(api, 'DELETE', `${BASE}ds1/`)).toHaveLength(1));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Data source deleted'));
  });

  it('hides what the permissions do not allow, and asks nothing of the inbox without its key', async () => {
    const api = serve();
    renderPage(['settings.data_sources.list']);
    await screen.findByTestId('data-source');
    expect(screen.queryByTestId('new-source')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit: Nayax production' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete: Nayax production' })).toBeNull();
    expect(screen.queryByTestId('tab-inbox')).toBeNull();
    expect(calls(api, 'GET', INBOX)).toHaveLength(0);
  });

  it('says the sources are an administrator’s when the server refuses them', async () => {
    serve({ [`GET ${BASE}`]: () => ({ status: 403, body: { message: 'Data sources are an administrator’s', errors: {} } }) });
    renderPage();
    expect((await screen.findByTestId('sources-error')).textContent).toContain('Data sources feed every machine: only a user who sees every machine opens them.');
  });
});

describe('the inbox', SLOW, () => {
  const rowOf = (text: string) => screen.getByText(text).closest('[role="row"]') as HTMLElement;

  it('lists the kept groups with their reasons, and shows a sample laid out', async () => {
    serve();
    renderPage(EVERY_KEY, '/settings/data-sources?tab=inbox');
    const table = within(await screen.findByTestId('inbox'));
    await table.findByText('Unknown machine');
    expect(table.getByText('Unknown product')).toBeTruthy();
    expect(table.getByText('Unreadable')).toBeTruthy();
    expect(within(rowOf('Unknown product')).getByText('B7')).toBeTruthy();
    expect(within(rowOf('Unreadable')).getByText('DEX audits')).toBeTruthy();
    expect(table.getByText(/booked as soon as a machine gets its Nayax machine id/)).toBeTruthy();
    expect(table.getByRole('link', { name: 'Open machine management' }).getAttribute('href')).toBe('/settings/machine-management');
    // No machine id: nothing to take again on its own.
    expect(within(rowOf('Unreadable')).queryByTestId('inbox-retake')).toBeNull();

    fireEvent.click(table.getByRole('button', { name: 'View sample: Unknown machine, Nayax machine 942001' }));
    const dialog = within(await screen.findByTestId('sample-dialog'));
    expect(dialog.getByText('Sample message: Unknown machine')).toBeTruthy();
    expect(dialog.getByTestId('sample-detail').textContent).toBe('No active machine has Nayax machine id 942001.');
    expect(dialog.getByRole('region', { name: 'Message body' }).textContent).toBe(JSON.stringify(JSON.parse(inbox[0].sample_body), null, 2));
    expect(dialog.getByText('The latest of the 3 messages of this group, as it came.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('sample-dialog')).toBeNull());

    fireEvent.click(within(rowOf('Unknown product')).getByRole('button', { name: /^View sample/ }));
    expect((await screen.findByTestId('sample-body')).textContent).toBe('not json at all');
  });

  it('takes a machine’s messages again, or all of them, and tells what became of them', async () => {
    const api = serve({ [`POST ${RETAKE}`]: () => ({ status: 200, body: { data: { booked: 3, ignored: 0, kept: 1 } } }) });
    renderPage(EVERY_KEY, '/settings/data-sources?tab=inbox');
    await screen.findByText('Unknown machine');
    fireEvent.click(screen.getByRole('button', { name: 'Take again: Unknown machine, Nayax machine 942001' }));
    await waitFor(() => expect(calls(api, 'POST', RETAKE)).toHaveLength(1));
    expect(calls(api, 'POST', RETAKE)[0].body).toEqual({ nayax_machine_id: '942001' });
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Taken again — booked: 3, ignored: 0, still kept: 1'));
    // The inbox and the sources' counts are read again.
    await waitFor(() => expect(calls(api, 'GET', INBOX).length).toBeGreaterThan(1));

    await waitFor(() => expect((screen.getByTestId('inbox-retake-all') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('inbox-retake-all'));
    await waitFor(() => expect(calls(api, 'POST', RETAKE)).toHaveLength(2));
    expect(calls(api, 'POST', RETAKE)[1].body).toEqual({});
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    serve();
    renderPage(EVERY_KEY, '/settings/data-sources?tab=inbox');
    await screen.findByText('Machine inconnue');
    expect(screen.getByText('Produit inconnu')).toBeTruthy();
    expect(screen.getByTestId('tab-inbox').textContent).toBe('Messages retenus');
    expect(screen.getByRole('button', { name: 'Reprendre: Machine inconnue, machine Nayax 942001' })).toBeTruthy();
    expect(screen.getByTestId('inbox-retake-all').textContent).toBe('Tout reprendre');
  });
});
