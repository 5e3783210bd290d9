import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import type { AuditRead, Machine, Profile } from '../../api/types';
import { AuthContext, type AuthContextValue } from '../../auth/context';
import { fakeApi } from '../../test/fake-api';
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

const baseline: AuditRead = {
  id: 'ev-1#1',
  at: '2026-03-01T08:00:00Z',
  local_date: '2026-03-01',
  state: 'baseline',
  checksum: 'ok',
  warnings: [],
  deltas: [],
  findings: [],
  vends: 0,
  value_minor: 0,
};

const held: AuditRead = {
  id: 'ev-2#1',
  at: '2026-03-02T08:00:00Z',
  local_date: '2026-03-02',
  state: 'held',
  previous_id: 'ev-1#1',
  checksum: 'absent',
  warnings: ['No G85 checksum'],
  deltas: [
    { selection: '10', vends: 700, value_minor: 105000 },
    { selection: '11', vends: 2, value_minor: 200 },
  ],
  findings: [{ flag: 'implausible_jump', selection: '10', reason: '700 vends in one day is more than the machine can sell' }],
  vends: 702,
  value_minor: 105200,
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
    // The baseline has no difference of its own.
    expect(within(rows[1]).getByTestId('audit-vends').textContent).toBe('—');
    expect(screen.getByTestId('audits-intro').textContent).toMatch(/sales are the differences between consecutive audit reads/);

    // A row opens on its deltas, findings and warnings.
    fireEvent.click(within(rows[0]).getByRole('button', { name: 'Show details' }));
    const details = await screen.findByTestId('audit-details');
    expect(within(details).getByTestId('audit-deltas').textContent).toContain('€1,050.00');
    expect(within(details).getByText('Implausible jump')).toBeTruthy();
    expect(within(details).getByText('700 vends in one day is more than the machine can sell')).toBeTruthy();
    expect(within(details).getByText('No G85 checksum')).toBeTruthy();
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
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Relevé d’audit accepté'));
    const posts = api.calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.path)).toEqual(['/api/machines/m1/audits/ev-2%231/accept/']);
    // The list is read again and the read is no longer held.
    await waitFor(() => expect(screen.getAllByTestId('audit-row')[0].getAttribute('data-state')).toBe('accepted'));
    expect(screen.queryByTestId('audit-accept')).toBeNull();
  });

  it('says so when the read was reviewed in the meantime', async () => {
    fakeApi({
      'GET /api/machines/m1/audits/': reads([held]),
      'POST /api/machines/m1/audits/ev-2%231/reject/': () => ({ status: 409, body: { message: 'The audit read is not held', errors: {} } }),
    });
    renderTab([READ, EDIT]);
    fireEvent.click(await screen.findByTestId('audit-reject'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/never counted/);
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith('This read is no longer held: it was reviewed in the meantime.'));
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

describe('machine page', () => {
  function renderPage(modules: string[]) {
    fakeApi({
      'GET /api/machines/m1/details/': () => ({ status: 200, body: { data: machine } }),
      'GET /api/machines/m1/audits/': reads([]),
    });
    const router = createMemoryRouter(
      [{ path: '/settings/machine-management/:machineId/:tab', element: <MachinePage />, handle: { title: 'nav.machineOverview' } }],
      { initialEntries: ['/settings/machine-management/m1/audits'] },
    );
    render(wrap(<RouterProvider router={router} />, modules));
  }

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
  });
});
