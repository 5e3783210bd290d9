import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import type { AuditRead, IntakeAnomaly, Machine, Profile } from '../../api/types';
import { AuthContext, type AuthContextValue } from '../../auth/context';
import { fakeApi } from '../../test/fake-api';
import { AnomaliesTab } from './components/anomalies-tab';
import { AuditsTab } from './components/audits-tab';
import MachinePage from './pages/machine-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

const machine = {
  id: 'm1',
  name: 'Lobby snack',
  currency: 'EUR',
  decimal_places: 2,
  sales_source: 'audit',
  serial: '',
  mcu_serial: '',
  firmware: '',
  connection_method: '',
  protocol: '',
  inactive: false,
  tags: [],
  tag_ids: [],
  peripherals: {},
  createdAt: '2026-01-02T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
  version: 1,
} as unknown as Machine;

const figures = { cash_minor: 0, cashless_minor: 0, free_vends: 0, test_vends: 0 };
const split = (vends: number, value_minor: number) => ({
  vends,
  value_minor,
  cash_vends: vends,
  cash_minor: value_minor,
  cashless_vends: 0,
  cashless_minor: 0,
  free_vends: 0,
  test_vends: 0,
});

const baseline: AuditRead = {
  id: 'ev-1#1',
  at: '2026-03-01T08:00:00Z',
  local_date: '2026-03-01',
  state: 'baseline',
  checksum: 'ok',
  checksum_line_ends: 'crlf',
  truncated: false,
  held_for: [],
  warnings: [],
  deltas: [],
  findings: [],
  vends: 0,
  value_minor: 0,
  ...figures,
};

const held: AuditRead = {
  id: 'ev-2#1',
  at: '2026-03-02T08:00:00Z',
  local_date: '2026-03-02',
  state: 'held',
  previous_id: 'ev-1#1',
  checksum: 'bad',
  truncated: false,
  held_for: ['bad_checksum', 'implausible_jump'],
  warnings: ['line 12, G85: checksum 1D58 does not match the audit (04A3)'],
  deltas: [
    { selection: '10', ...split(700, 105000) },
    { selection: '11', ...split(2, 200) },
  ],
  findings: [
    { flag: 'bad_checksum', holds: true, reason: 'The audit’s checksum does not match its figures' },
    { flag: 'implausible_jump', holds: true, selection: '10', reason: '700 vends in one day is more than the machine can sell' },
    { flag: 'gap_in_reads', holds: false, reason: '1 reads were taken in between that never arrived' },
  ],
  vends: 702,
  value_minor: 105200,
  ...figures,
  cash_minor: 105200,
  preview: {
    read_id: 'ev-2#1',
    baseline_id: 'ev-1#1',
    new_baseline: false,
    deltas: [],
    findings: [],
    vends: 702,
    value_minor: 105200,
    cash_minor: 100000,
    cashless_minor: 5200,
    free_vends: 3,
    test_vends: 1,
  },
};

const EDIT = 'settings.machines.edit';
const READ = 'settings.machines.read_eva_dts';

function wrap(children: ReactNode, modules: string[]) {
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
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <AuthContext.Provider value={auth}>
      <QueryClientProvider client={queries}>{children}</QueryClientProvider>
    </AuthContext.Provider>
  );
}

function renderTab(modules: string[], target: Machine = machine) {
  render(wrap(<AuditsTab machine={target} />, modules));
}

const reads = (data: AuditRead[]) => () => ({ status: 200, body: { data } });

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('audits tab', () => {
  it('lists the reads with their state, vends and value, and explains what they mean', async () => {
    fakeApi({ 'GET /api/machines/m1/audits/': reads([held, baseline]) });
    renderTab([READ]);
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows.map((row) => row.getAttribute('data-state'))).toEqual(['held', 'baseline']);
    expect(within(rows[0]).getByTestId('audit-state').textContent).toBe('Held for review');
    expect(within(rows[0]).getByTestId('audit-vends').textContent).toBe('702');
    expect(within(rows[0]).getByTestId('audit-value').textContent).toBe('€1,052.00');
    expect(within(rows[1]).getByTestId('audit-checksum').textContent).toBe('OK (CR LF)');
    // The baseline has no difference of its own.
    expect(within(rows[1]).getByTestId('audit-vends').textContent).toBe('—');
    expect(screen.getByTestId('audits-intro').textContent).toMatch(/sales are the differences between consecutive audit reads/);

    // A row opens on its deltas, findings and warnings.
    fireEvent.click(within(rows[0]).getByRole('button', { name: 'Show details' }));
    const details = await screen.findByTestId('audit-details');
    expect(within(details).getByTestId('audit-deltas').textContent).toContain('€1,050.00');
    expect(within(details).getByText('Implausible jump')).toBeTruthy();
    expect(within(details).getByText('700 vends in one day is more than the machine can sell')).toBeTruthy();
    expect(within(details).getByText('Gap in reads')).toBeTruthy();
    expect(within(details).getByText('line 12, G85: checksum 1D58 does not match the audit (04A3)')).toBeTruthy();
  });

  it('lists the held reads apart: why each is held and what accepting it would book', async () => {
    fakeApi({ 'GET /api/machines/m1/audits/': reads([held, baseline]) });
    renderTab([READ]);
    const list = await screen.findByTestId('held-reads');
    expect(within(list).getByText('Held reads (1)')).toBeTruthy();
    const row = within(list).getByTestId('held-read');
    // Only the findings that hold it are its reasons.
    const reasons = within(row).getAllByTestId('held-reason').map((reason) => reason.textContent);
    expect(reasons).toEqual([
      'Checksum wrongThe audit’s checksum does not match its figures',
      'Implausible jump700 vends in one day is more than the machine can sell',
    ]);
    const preview = within(row).getByTestId('held-preview').textContent;
    expect(preview).toContain('702 vends, €1,052.00');
    expect(preview).toContain('€1,000.00 cash, €52.00 cashless');
    expect(preview).toContain('3 free and 1 test vends leave the stock');
  });

  it('says a held read that would start a new baseline books nothing, in every language', async () => {
    const first = { ...held, preview: { ...held.preview!, new_baseline: true, baseline_id: null, vends: 0, value_minor: 0 } };
    fakeApi({ 'GET /api/machines/m1/audits/': reads([first]) });
    await i18next.changeLanguage('it');
    renderTab([READ]);
    const preview = await screen.findByTestId('held-preview');
    expect(preview.textContent).toBe('Nessuna vendita: diventa il riferimento delle letture successive.');
    expect(screen.getByText('Letture in sospeso (1)')).toBeTruthy();
  });

  it('says the reads are never counted for a machine selling from its events', async () => {
    fakeApi({ 'GET /api/machines/m1/audits/': reads([]) });
    renderTab([READ], { ...machine, sales_source: 'events' });
    await screen.findByText('No audit read yet');
    expect(screen.getByTestId('audits-intro').textContent).toMatch(/never counted/);
  });

  it('hides accept and reject without the machines edit permission', async () => {
    fakeApi({ 'GET /api/machines/m1/audits/': reads([held]) });
    renderTab([READ]);
    await screen.findByTestId('audit-row');
    expect(screen.queryByTestId('audit-accept')).toBeNull();
    expect(screen.queryByTestId('audit-reject')).toBeNull();
    expect(screen.getByTestId('audit-upload')).toBeTruthy();
  });

  it('accepts a held read after confirmation, posting to its URL, and shows the reply in the user language', async () => {
    let list = [held, baseline];
    const api = fakeApi({
      'GET /api/machines/m1/audits/': () => ({ status: 200, body: { data: list } }),
      'POST /api/machines/m1/audits/ev-2%231/accept/': () => {
        const accepted = { ...held, state: 'accepted' as const, reviewed_by: 'Ann', reviewed_at: '2026-03-03T09:00:00Z' };
        list = [accepted, baseline];
        return { status: 200, body: { message: 'Audit read accepted', code: 'audit_read_accepted', data: accepted } };
      },
    });
    await i18next.changeLanguage('fr');
    renderTab([READ, EDIT]);
    await screen.findAllByTestId('audit-row');
    // Only held reads can be reviewed.
    expect(screen.getAllByTestId('audit-accept')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('audit-accept'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Accepter ce relevé d’audit ?')).toBeTruthy();
    expect(dialog.textContent).toMatch(/entrent dans les chiffres de vente/);
    // It says what it will book before it books.
    expect(within(dialog).getByTestId('held-preview').textContent).toContain('702 ventes');
    expect(within(dialog).getByTestId('held-preview').textContent).toMatch(/en espèces/);
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Relevé d’audit accepté'));
    const posts = api.calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.path)).toEqual(['/api/machines/m1/audits/ev-2%231/accept/']);
    // The list is read again and the read is no longer held.
    await waitFor(() => expect(screen.getAllByTestId('audit-row')[0].getAttribute('data-state')).toBe('accepted'));
    expect(screen.queryByTestId('audit-accept')).toBeNull();
    expect(screen.queryByTestId('held-reads')).toBeNull();
  });

  it('says so when the read was reviewed in the meantime', async () => {
    fakeApi({
      'GET /api/machines/m1/audits/': reads([held]),
      'POST /api/machines/m1/audits/ev-2%231/reject/': () => ({ status: 409, body: { message: 'The audit read is not held', errors: {} } }),
    });
    renderTab([READ, EDIT]);
    fireEvent.click(await screen.findByTestId('audit-reject'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Discard this audit read?')).toBeTruthy();
    expect(dialog.textContent).toMatch(/never counted/);
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-submit'));
    await waitFor(() =>
      expect(toasts.error).toHaveBeenCalledWith('This read can no longer be reviewed: someone reviewed it in the meantime, or a later read counted its sales.'),
    );
  });
});

describe('audit upload', () => {
  const file = (text: string, name = 'audit.dex') => new File([text], name, { type: 'text/plain' });

  async function chooseAndSend(content: string) {
    fireEvent.click(await screen.findByTestId('audit-upload'));
    const dialog = await screen.findByTestId('audit-upload-dialog');
    fireEvent.change(within(dialog).getByTestId('audit-file-input'), { target: { files: [file(content)] } });
    await within(dialog).findByText('audit.dex');
    fireEvent.click(screen.getByTestId('audit-upload-submit'));
    return dialog;
  }

  it('posts the file as text and notes when it was taken in before', async () => {
    const api = fakeApi({
      'GET /api/machines/m1/audits/': reads([baseline]),
      'POST /api/machines/eva-dts/read/': () => ({ status: 200, body: { message: 'Audit read taken in', code: 'audit_read_taken_in', data: [] } }),
    });
    renderTab([READ]);
    const dialog = await chooseAndSend('DXS*VF00000001*VA*V1/1*1\r\nDXE*1*1\r\n');
    await within(dialog).findByText('This file was taken in before: it made no new read.');
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ machine_id: 'm1', content: 'DXS*VF00000001*VA*V1/1*1\r\nDXE*1*1\r\n' });
    expect(toasts.success).not.toHaveBeenCalled();
  });

  it('closes with the server message when the file made reads', async () => {
    fakeApi({
      'GET /api/machines/m1/audits/': reads([baseline]),
      'POST /api/machines/eva-dts/read/': () => ({ status: 200, body: { message: 'Audit read taken in', code: 'audit_read_taken_in', data: [held] } }),
    });
    await i18next.changeLanguage('it');
    renderTab([READ]);
    await chooseAndSend('DXS*1\r\n');
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Lettura audit acquisita'));
    await waitFor(() => expect(screen.queryByTestId('audit-upload-dialog')).toBeNull());
  });

  it("shows the server's field error when the file cannot be read as an audit", async () => {
    fakeApi({
      'GET /api/machines/m1/audits/': reads([]),
      'POST /api/machines/eva-dts/read/': () => ({
        status: 400,
        body: { message: 'The given data was invalid', errors: { content: ['Not an EVA-DTS audit file: no DXS line'] } },
      }),
    });
    renderTab([READ]);
    const dialog = await chooseAndSend('hello');
    expect((await within(dialog).findByTestId('audit-upload-error')).textContent).toBe('Not an EVA-DTS audit file: no DXS line');
  });
});

describe('intake anomalies', () => {
  const reused: IntakeAnomaly = {
    event_id: 'm42-000187',
    kind: 'reused_id',
    first: {
      received_at: '2026-03-01T08:00:00Z',
      fingerprint: '1a2b3c4d5e6f7081',
      payload: '{"id":"m42-000187","type":"vend","selection":"A1","price_minor":100,"quantity":1}',
    },
    second: { received_at: '2026-03-02T08:00:00Z', fingerprint: '99aa88bb77cc66dd', payload: null },
  };

  it('shows each reused id with the event counted and the one refused', async () => {
    fakeApi({ 'GET /api/machines/m1/intake-anomalies/': () => ({ status: 200, body: { data: [reused] } }) });
    render(wrap(<AnomaliesTab machine={machine} />, [EDIT]));
    const card = await screen.findByTestId('anomaly');
    expect(within(card).getByText('Event id m42-000187')).toBeTruthy();
    const first = within(card).getByTestId('anomaly-first');
    expect(within(first).getByText('First, counted')).toBeTruthy();
    expect(within(first).getByTestId('anomaly-payload').textContent).toContain('"price_minor": 100');
    const second = within(card).getByTestId('anomaly-second');
    expect(within(second).getByText('Later, refused')).toBeTruthy();
    expect(second.textContent).toContain('Fingerprint 99aa88bb77cc66dd');
    expect(within(second).getByText(/Content not kept/)).toBeTruthy();
  });

  it('says when there is none, in French', async () => {
    fakeApi({ 'GET /api/machines/m1/intake-anomalies/': () => ({ status: 200, body: { data: [] } }) });
    await i18next.changeLanguage('fr');
    render(wrap(<AnomaliesTab machine={machine} />, [EDIT]));
    expect((await screen.findByTestId('anomalies-empty')).textContent).toBe(
      'Aucune anomalie : chaque identifiant d’événement de cette machine n’a servi qu’une fois.',
    );
  });
});

describe('machine page', () => {
  function renderPage(modules: string[], tab = 'audits') {
    fakeApi({
      'GET /api/machines/m1/details/': () => ({ status: 200, body: { data: machine } }),
      'GET /api/machines/m1/audits/': reads([]),
      'GET /api/machines/m1/intake-anomalies/': () => ({ status: 200, body: { data: [] } }),
    });
    const router = createMemoryRouter(
      [{ path: '/settings/machine-management/:machineId/:tab', element: <MachinePage />, handle: { title: 'nav.machineOverview' } }],
      { initialEntries: [`/settings/machine-management/m1/${tab}`] },
    );
    render(wrap(<RouterProvider router={router} />, modules));
  }

  it('shows the intake anomalies tab to users who may edit machines', async () => {
    renderPage(['settings.machines.list', EDIT], 'anomalies');
    await screen.findByTestId('machine-tab-anomalies');
    await screen.findByTestId('anomalies-empty');
  });

  it('shows the audits tab only to users who may read audits', async () => {
    renderPage(['settings.machines.list', READ]);
    await screen.findByTestId('machine-tab-audits');
    await screen.findByText('No audit read yet');
  });

  it('falls back to the overview without the permission', async () => {
    renderPage(['settings.machines.list']);
    await screen.findByTestId('machine-tab-overview');
    expect(screen.queryByTestId('machine-tab-audits')).toBeNull();
    expect(screen.queryByTestId('audits-tab')).toBeNull();
    expect(screen.queryByTestId('machine-tab-anomalies')).toBeNull();
  });
});
