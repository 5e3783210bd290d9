import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OperatorSettings } from '../../api/types';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, page, type Routes } from '../../test/report-api';
import type { DataExit } from './api/types';
import { exitQuery, machinesCovered, spanProblem } from './audit-logic';
import AuditTrailPage from './pages/audit-trail-page';

function settings(editable: boolean): OperatorSettings {
  return { time_zone: 'UTC', today: '2026-11-23', mail_domains: [], min_task_interval_minutes: 15, editable, version: 0, updated_at: null };
}

function exit(id: string, patch: Partial<DataExit> = {}): DataExit {
  return {
    id,
    at: '2026-11-23T08:15:00Z',
    kind: 'export',
    user_id: 'u1',
    user_name: 'Ann Admin',
    what: '/api/sales-journal/detail-table/export/?period=current_month',
    file_name: 'sales.csv',
    reach: { all: true, machine_ids: [] },
    recipients: [],
    rows: 1234,
    report_id: null,
    task_id: null,
    ...patch,
  };
}

const ROWS = [
  exit('x2', {
    kind: 'mail',
    at: '2026-11-23T09:00:00Z',
    user_name: 'Bea Scheduler',
    what: 'encashment period=yesterday',
    file_name: 'cash-hall-a.csv',
    reach: { all: false, machine_ids: ['m1', 'm2', 'm3'] },
    recipients: ['ops@example.com', 'boss@example.com'],
    rows: null,
    report_id: 'r1',
    task_id: 'q1',
  }),
  exit('x1', { user_name: '' }),
];

function serve(editable: boolean, routes: Routes = {}) {
  return fakeApi({
    'GET /api/settings/operator/': data(settings(editable)),
    'GET /api/audit/exports/': page(ROWS),
    'GET /api/filters/employees/': data([
      { id: 'u1', name: 'Ann Admin' },
      { id: 'u2', name: 'Bea Scheduler' },
    ]),
    ...routes,
  });
}

function renderAt(url: string) {
  const routes: RouteObject[] = [{ path: '/settings/audit-trail', element: <AuditTrailPage />, handle: { title: 'nav.auditTrail' } }];
  return renderRoutes(routes, url, signedIn([], { module: { access_all_modules: true, modules: [] } }));
}

const calls = (api: { calls: Call[] }) => api.calls.filter((call) => call.path === '/api/audit/exports/');
const params = (call: Call | undefined) => Object.fromEntries(new URLSearchParams(call?.search ?? ''));

const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('the audit trail’s rules', () => {
  it('takes a span of at most 366 real days in order; an empty end is the server’s default', () => {
    expect(spanProblem('', '')).toBeNull();
    expect(spanProblem('2026-01-01', '')).toBeNull();
    expect(spanProblem('2026-01-01', '2026-12-31')).toBeNull();
    expect(spanProblem('2024-01-01', '2024-12-31')).toBeNull();
    expect(spanProblem('2024-01-01', '2025-01-01')).toBe('tooLong');
    expect(spanProblem('2026-02-01', '2026-01-01')).toBe('reversed');
    expect(spanProblem('2026-02-30', '')).toBe('date');
  });

  it('sends only the filters chosen, and the orderings the server knows', () => {
    const list = { page: 2, page_size: 25, search: 'sales', ordering: 'at' };
    expect(exitQuery(list, { kind: 'mail', user_id: 'u2', date_from: '2026-11-01', date_to: '2026-11-23' })).toEqual({
      page: 2,
      page_size: 25,
      search: 'sales',
      ordering: 'at',
      kind: 'mail',
      user_id: 'u2',
      date_from: '2026-11-01',
      date_to: '2026-11-23',
    });
    expect(exitQuery({ ...list, search: '', ordering: 'file_name' }, { kind: 'teleport', user_id: '', date_from: '', date_to: '' })).toEqual({ page: 2, page_size: 25 });
    expect(machinesCovered({ all: false, machine_ids: ['a', 'b'] })).toEqual({ all: false, count: 2 });
    expect(machinesCovered({ all: true })).toEqual({ all: true });
  });
});

describe('audit trail screen', SLOW, () => {
  it('lists what left the system: when, who, how, what, the file, the machines, to whom and the rows', async () => {
    const api = serve(true);
    renderAt('/settings/audit-trail');
    const grid = within(await screen.findByTestId('audit-grid'));
    await grid.findByText('cash-hall-a.csv');
    const [mail, download] = grid.getAllByRole('row').slice(1);
    const cells = (row: HTMLElement) => Array.from(row.querySelectorAll('[role="gridcell"]')).map((cell) => cell.textContent);
    expect(cells(mail)).toEqual([
      'Nov 23, 2026, 9:00 AM',
      'Bea Scheduler',
      'Report mailed',
      'encashment period=yesterday',
      'cash-hall-a.csv',
      '3 machines',
      'ops@example.comboss@example.com',
      '—',
    ]);
    expect(cells(download)).toEqual([
      'Nov 23, 2026, 8:15 AM',
      'A deleted user',
      'Export',
      '/api/sales-journal/detail-table/export/?period=current_month',
      'sales.csv',
      'All machines',
      'Downloaded',
      '1,234',
    ]);
    expect(params(calls(api)[0])).toEqual({ page: '1', page_size: '25' });
  });

  it('keeps its filters in the URL and sends them', async () => {
    const api = serve(true);
    const router = renderAt('/settings/audit-trail?kind=mail&user_id=u2&date_from=2026-11-01&date_to=2026-11-23&ordering=at');
    await screen.findByTestId('audit-grid');
    await waitFor(() => expect(calls(api)).toHaveLength(1));
    expect(params(calls(api)[0])).toEqual({ page: '1', page_size: '25', ordering: 'at', kind: 'mail', user_id: 'u2', date_from: '2026-11-01', date_to: '2026-11-23' });
    expect(screen.getByTestId('audit-kind-filter').textContent).toBe('Report mailed');
    await waitFor(() => expect((screen.getByTestId('audit-user-filter') as HTMLInputElement).value).toBe('Bea Scheduler'));

    fireEvent.mouseDown(screen.getByTestId('audit-kind-filter'));
    fireEvent.click(await screen.findByRole('option', { name: 'Report downloaded' }));
    await waitFor(() => expect(router.state.location.search).toContain('kind=report_download'));
    await waitFor(() => expect(params(calls(api).at(-1))).toMatchObject({ kind: 'report_download' }));

    // A span the server would refuse is said at once, and not asked.
    const before = calls(api).length;
    fireEvent.change(screen.getByTestId('audit-date-from'), { target: { value: '2025-01-01' } });
    await screen.findByText('At most 366 days at once');
    expect(calls(api)).toHaveLength(before);
  });

  it('is denied to whoever may not change the operator’s policy, and asks nothing of the trail', async () => {
    const api = serve(false);
    renderAt('/settings/audit-trail');
    await screen.findByTestId('forbidden');
    expect(screen.queryByTestId('audit-grid')).toBeNull();
    expect(calls(api)).toHaveLength(0);
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    serve(true);
    renderAt('/settings/audit-trail');
    const grid = within(await screen.findByTestId('audit-grid'));
    await grid.findByText('Rapport envoyé par e-mail');
    expect(grid.getByText('Toutes les machines')).toBeTruthy();
    expect(grid.getByText('3 machines')).toBeTruthy();
  });
});
