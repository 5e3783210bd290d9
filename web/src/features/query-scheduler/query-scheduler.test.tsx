import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, filterRoutes, page, plain, type Routes } from '../../test/report-api';
import type { OperatorSettings } from '../../api/types';
import type { Task } from '../../api/types';
import QueryEditPage from './pages/query-edit-page';
import QuerySchedulerPage from './pages/query-scheduler-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

const keys = (...parts: string[]) => parts.map((part) => `settings.query_scheduler.${part}`);
const ALL = keys('list', 'new', 'edit', 'delete');

function task(id: string, patch: Partial<Task> = {}): Task {
  return {
    id,
    name: `Query ${id}`,
    module: 'encashment',
    template_id: null,
    params: { period: 'yesterday' },
    format: 'csv',
    graph: 'none',
    columns: [],
    cron: { minute: '30', hour: '8', day_of_month: '*', month: '*', day_of_week: '1' },
    time_zone: 'Europe/Rome',
    status: 'active',
    recipients: { user_ids: ['e1'], emails: ['ops@example.com'] },
    created_by: { id: 'u1', name: 'Ann' },
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    version: 2,
    next_run: '2026-11-30T07:30:00Z',
    last_run: null,
    deliveries: [],
    ...patch,
  };
}

function operator(patch: Partial<OperatorSettings> = {}): OperatorSettings {
  return {
    time_zone: 'Europe/Rome',
    today: '2026-11-23',
    mail_domains: ['example.com', '*.example.org'],
    min_task_interval_minutes: 15,
    editable: false,
    version: 1,
    updated_at: '2026-11-20T10:00:00Z',
    ...patch,
  };
}

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/filters/query-schedulers/modules/': data([
      { id: 'encashment', name: 'Encashment' },
      { id: 'inventory', name: 'Inventory' },
    ]),
    'GET /api/filters/query-schedulers/periods/': data([
      { id: 'yesterday', name: 'Yesterday' },
      { id: 'previous_week', name: 'Previous week' },
    ]),
    'GET /api/filters/timezones/': data(['Europe/Rome', 'UTC']),
    'GET /api/reports/generator/columns/': data([{ id: 'date', name: 'Date' }]),
    'GET /api/query-schedulers/': page([task('q1'), task('q2', { status: 'paused', next_run: null, name: 'Paused one' })]),
    'GET /api/query-schedulers/next-runs/': data({ runs: ['2026-11-30T07:30:00Z', '2026-12-07T07:30:00Z'], eventbridge: 'cron(30 7 ? * MON *)' }),
    'GET /api/settings/operator/': data(operator()),
    ...routes,
  });
}

function renderAt(url: string, modules: string[]) {
  const routes: RouteObject[] = [
    { path: '/settings/query-scheduler', element: <QuerySchedulerPage />, handle: { title: 'nav.queryScheduler' } },
    { path: '/settings/create-query/:module', element: <QueryEditPage />, handle: { title: 'nav.createQuery' } },
    { path: '/settings/create-query/:module/:queryId', element: <QueryEditPage />, handle: { title: 'nav.editQuery' } },
  ];
  return renderRoutes(routes, url, signedIn(modules));
}

const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((call) => call.method === method && call.path === path);
const params = (call: Call | undefined) => Object.fromEntries(new URLSearchParams(call?.search ?? ''));
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const helperOf = (element: HTMLElement) => element.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent;

// Screens with many fields and debounced requests: room for a slow machine.
const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('query scheduler list', SLOW, () => {
  it('shows each schedule in words, its next run in its zone, and no action without the keys', async () => {
    serve();
    renderAt('/settings/query-scheduler', keys('list'));
    const grid = within(await screen.findByTestId('query-schedulers-grid'));
    await grid.findByText('Query q1');
    expect(grid.getAllByText('At 08:30, only on Monday').length).toBe(2);
    expect(grid.getByText('Nov 30, 2026, 8:30 AM')).toBeTruthy();
    expect(grid.getAllByText('Europe/Rome').length).toBe(2);
    expect(grid.getByText('Paused')).toBeTruthy();
    expect(grid.queryByRole('button', { name: /^(Send now|Edit|Delete): / })).toBeNull();
    expect(grid.queryByRole('switch')).toBeNull();
    expect(screen.queryByTestId('new-query')).toBeNull();
  });

  it('sends now, pauses and resumes with the edit key, deletes with the delete key', async () => {
    const api = serve({
      'POST /api/query-schedulers/q1/send-now/': () => ({ status: 202, body: { message: 'Sending', data: { id: 'r1' } } }),
      'POST /api/query-schedulers/q1/change-status/': () => ({ status: 200, body: { message: 'ok', data: task('q1', { status: 'paused' }) } }),
      'POST /api/query-schedulers/q2/change-status/': () => ({ status: 200, body: { message: 'ok', data: task('q2') } }),
    });
    renderAt('/settings/query-scheduler', keys('list', 'edit'));
    const grid = within(await screen.findByTestId('query-schedulers-grid'));
    fireEvent.click(await grid.findByRole('button', { name: 'Send now: Query q1' }));
    await waitFor(() => expect(calls(api, 'POST', '/api/query-schedulers/q1/send-now/')).toHaveLength(1));
    expect(toasts.success).toHaveBeenCalledWith('“Query q1” is being prepared and sent to its recipients');
    expect(grid.getByRole('button', { name: 'Edit: Query q1' })).toBeTruthy();
    expect(grid.queryByRole('button', { name: 'Delete: Query q1' })).toBeNull();

    fireEvent.click(grid.getByRole('switch', { name: 'Pause: Query q1' }));
    await waitFor(() => expect(calls(api, 'POST', '/api/query-schedulers/q1/change-status/')[0]?.body).toEqual({ status: 'paused' }));
    fireEvent.click(grid.getByRole('switch', { name: 'Resume: Paused one' }));
    await waitFor(() => expect(calls(api, 'POST', '/api/query-schedulers/q2/change-status/')[0]?.body).toEqual({ status: 'active' }));
  });

  it('marks a query the system paused, runs a paused one once saying it stays paused, and shows the server’s refusal', async () => {
    const gone = 'The template this task follows was deleted or is no longer shared with its owner: choose another definition to resume it.';
    const api = serve({
      'GET /api/query-schedulers/': page([
        task('q1', { status: 'paused', next_run: null, name: 'Paused by hand' }),
        task('q2', { status: 'paused', next_run: null, name: 'Orphan', paused_reason: gone }),
        task('q3', { name: 'Nobody may' }),
      ]),
      // The reply's text is the server's; the notice follows the task's status.
      'POST /api/query-schedulers/q1/send-now/': () => ({ status: 202, body: { message: 'Report queued', data: { id: 'r1' } } }),
      'POST /api/query-schedulers/q2/send-now/': () => ({ status: 409, body: { message: gone, errors: {} } }),
      'POST /api/query-schedulers/q2/change-status/': () => ({ status: 409, body: { message: gone, errors: {} } }),
      'POST /api/query-schedulers/q3/send-now/': () => ({ status: 409, body: { message: 'No recipient may receive this report: see the task’s deliveries', errors: {} } }),
    });
    renderAt('/settings/query-scheduler', keys('list', 'edit'));
    const grid = within(await screen.findByTestId('query-schedulers-grid'));
    await grid.findByText('Orphan');
    const markers = grid.getAllByTestId('task-paused-reason');
    expect(markers).toHaveLength(1);
    // What a screen reader hears: the marker and the reason (hidden text; the chip is hidden from it).
    expect(grid.getByText(`Paused by the system: ${gone}`)).toBeTruthy();

    fireEvent.click(grid.getByRole('button', { name: 'Send now: Paused by hand' }));
    await waitFor(() => expect(toasts.info).toHaveBeenCalledWith('“Paused by hand” runs once now and is sent to its recipients; the query stays paused'));
    expect(toasts.success).not.toHaveBeenCalled();

    fireEvent.click(grid.getByRole('button', { name: 'Send now: Orphan' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(`The query was not sent: ${gone}`));
    fireEvent.click(grid.getByRole('switch', { name: 'Resume: Orphan' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(`The query’s status was not changed: ${gone}`));
    fireEvent.click(grid.getByRole('button', { name: 'Send now: Nobody may' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith('The query was not sent: No recipient may receive this report: see the task’s deliveries'));
    expect(calls(api, 'POST', '/api/query-schedulers/q3/send-now/')).toHaveLength(1);
  });

  it('starts a new query from its module', async () => {
    serve();
    const router = renderAt('/settings/query-scheduler', ALL);
    fireEvent.click(await screen.findByTestId('new-query'));
    fireEvent.click(await screen.findByTestId('new-query-inventory'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/create-query/inventory'));
    expect(await screen.findByTestId('report-inventory-tab')).toBeTruthy();
    // The inventory has no period.
    expect(screen.queryByTestId('schedule-period')).toBeNull();
  });
});

describe('query form', SLOW, () => {
  it('writes the cron fields from a preset, says the schedule in words and shows the next runs in the chosen zone', async () => {
    const api = serve({ 'POST /api/query-schedulers/': () => ({ status: 201, body: { message: 'Created', data: task('q9') } }) });
    const router = renderAt('/settings/create-query/encashment', ALL);
    await screen.findByTestId('schedule-editor');
    // Every day at 07:00 to start with.
    expect(['minute', 'hour', 'day_of_month', 'month', 'day_of_week'].map((field) => input(`cron-${field}`).value)).toEqual(['0', '7', '*', '*', '*']);
    expect(screen.getByTestId('schedule-words').textContent).toBe('Every day at 07:00');

    fireEvent.mouseDown(screen.getByTestId('schedule-preset'));
    fireEvent.click(await screen.findByTestId('schedule-preset-weekly'));
    fireEvent.change(await screen.findByTestId('schedule-time'), { target: { value: '08:30' } });
    expect(['minute', 'hour', 'day_of_month', 'month', 'day_of_week'].map((field) => input(`cron-${field}`).value)).toEqual(['30', '8', '*', '*', '1']);
    expect(screen.getByTestId('schedule-words').textContent).toBe('At 08:30, only on Monday');

    const zone = input('schedule-time-zone');
    // The box keeps what is typed only while it has the focus.
    act(() => zone.focus());
    fireEvent.change(zone, { target: { value: 'Europe/R' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Europe/Rome' }));

    await waitFor(() =>
      expect(params(calls(api, 'GET', '/api/query-schedulers/next-runs/').at(-1))).toEqual({
        minute: '30',
        hour: '8',
        day_of_month: '*',
        month: '*',
        day_of_week: '1',
        time_zone: 'Europe/Rome',
        count: '5',
      }),
    );
    const runs = within(screen.getByTestId('schedule-next-runs'));
    await waitFor(() => expect(runs.getAllByTestId('schedule-next-run').map((run) => plain(run))).toEqual([
      'Monday, November 30, 2026 at 08:30 AM GMT+1',
      'Monday, December 7, 2026 at 08:30 AM GMT+1',
    ]));
    expect(screen.getByTestId('schedule-eventbridge').textContent).toBe('cron(30 7 ? * MON *)');

    // Typing the fields by hand: the preset follows.
    fireEvent.change(input('cron-day_of_week'), { target: { value: '*' } });
    fireEvent.change(input('cron-day_of_month'), { target: { value: '1' } });
    expect(screen.getByTestId('schedule-preset').textContent).toBe('First day of the month');
    fireEvent.change(input('cron-day_of_month'), { target: { value: '15' } });
    expect(screen.getByTestId('schedule-preset').textContent).toBe('Custom (cron fields)');

    fireEvent.change(screen.getByTestId('schedule-name'), { target: { value: ' Cash mid-month ' } });
    fireEvent.mouseDown(screen.getByTestId('schedule-period'));
    fireEvent.click(await screen.findByTestId('schedule-period-previous_week'));
    const users = screen.getByTestId('schedule-users');
    fireEvent.mouseDown(users);
    fireEvent.click(await screen.findByRole('option', { name: 'Marco Bianchi' }));
    fireEvent.change(screen.getByTestId('schedule-emails'), { target: { value: 'ops@example.com,' } });
    fireEvent.change(screen.getByTestId('schedule-emails'), { target: { value: 'boss@example.com' } });
    fireEvent.blur(screen.getByTestId('schedule-emails'));
    fireEvent.mouseDown(screen.getByTestId('report-format'));
    fireEvent.click(await screen.findByTestId('report-format-csv'));

    fireEvent.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(calls(api, 'POST', '/api/query-schedulers/')).toHaveLength(1));
    expect(calls(api, 'POST', '/api/query-schedulers/')[0].body).toEqual({
      name: 'Cash mid-month',
      module: 'encashment',
      template_id: null,
      params: { period: 'previous_week' },
      format: 'csv',
      graph: 'none',
      columns: [],
      cron: { minute: '30', hour: '8', day_of_month: '15', month: '*', day_of_week: '*' },
      time_zone: 'Europe/Rome',
      status: 'active',
      recipients: { user_ids: ['e1'], emails: ['ops@example.com', 'boss@example.com'] },
    });
    expect(toasts.success).toHaveBeenCalledWith('Query created');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/query-scheduler'));
  });

  it('shows the cron fields the server refuses on the fields, and needs a recipient', async () => {
    const api = serve({
      'GET /api/query-schedulers/next-runs/': (call) =>
        new URLSearchParams(call.search).get('minute') === '75'
          ? { status: 400, body: { message: 'Invalid schedule', errors: { minute: ['Use a minute from 0 to 59.'] } } }
          : data({ runs: ['2026-11-24T06:00:00Z'], eventbridge: 'cron(0 6 * * ? *)' })(),
      'POST /api/query-schedulers/': () => ({ status: 400, body: { message: 'Invalid input', errors: { 'cron.day_of_week': ['Choose a day of the month or a day of the week, not both.'] } } }),
    });
    renderAt('/settings/create-query/encashment', ALL);
    await screen.findByTestId('schedule-editor');
    fireEvent.change(input('cron-minute'), { target: { value: '75' } });
    // After the fields rest and the server answers: room for a busy machine.
    await waitFor(() => expect(helperOf(input('cron-minute'))).toBe('Use a minute from 0 to 59.'), { timeout: 5000 });
    expect(input('cron-minute').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('schedule-words').textContent).toBe('These fields do not read as a schedule');
    expect(screen.getByText('Correct the fields the server refuses to see the next runs.')).toBeTruthy();
    fireEvent.change(input('cron-minute'), { target: { value: '0' } });
    await waitFor(() => expect(helperOf(input('cron-minute'))).toBe('0–59'));

    fireEvent.change(screen.getByTestId('schedule-name'), { target: { value: 'Cash' } });
    fireEvent.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(screen.getByTestId('schedule-recipients-message').textContent).toBe('Add at least one user or e-mail address'));
    expect(calls(api, 'POST', '/api/query-schedulers/')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('schedule-emails'), { target: { value: 'ops@example.com ' } });
    fireEvent.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(helperOf(input('cron-day_of_week'))).toBe('Choose a day of the month or a day of the week, not both.'));
    expect(toasts.error).toHaveBeenCalledWith('The query could not be created.');
  });

  it('runs a template of the module when one is chosen', async () => {
    const api = serve({
      'GET /api/reports/generator/templates/': page([
        { id: 't1', name: 'Cash by bag', module: 'encashment', params: { period: 'previous_month' }, format: 'xlsx', graph: 'none', columns: ['date'], visibility: 'public', editable: true, version: 1 },
      ]),
      'POST /api/query-schedulers/': () => ({ status: 201, body: { message: 'Created', data: task('q9') } }),
    });
    renderAt('/settings/create-query/encashment', [...ALL, 'reports.report_generator.templates_list']);
    fireEvent.mouseDown(await screen.findByTestId('schedule-template'));
    fireEvent.click(await screen.findByRole('option', { name: 'Cash by bag' }));
    await screen.findByTestId('schedule-uses-template');
    expect(screen.queryByTestId('report-definition-filters')).toBeNull();
    expect(params(calls(api, 'GET', '/api/reports/generator/templates/')[0])).toMatchObject({ module: 'encashment' });
    fireEvent.change(screen.getByTestId('schedule-name'), { target: { value: 'From template' } });
    fireEvent.change(screen.getByTestId('schedule-emails'), { target: { value: 'ops@example.com;' } });
    fireEvent.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(calls(api, 'POST', '/api/query-schedulers/')).toHaveLength(1));
    expect(calls(api, 'POST', '/api/query-schedulers/')[0].body).toMatchObject({
      template_id: 't1',
      params: { period: 'previous_month' },
      format: 'xlsx',
      columns: ['date'],
    });
  });

  it('edits a query with the version read and shows its last run and e-mails', async () => {
    const api = serve({
      'GET /api/query-schedulers/q1/': data(
        task('q1', {
          last_run: { at: '2026-11-23T07:30:00Z', report_id: 'r1', report_ids: ['r1'], status: 'done', error: null },
          deliveries: [
            { at: '2026-11-23T07:40:00Z', recipient: 'boss@example.com', status: 'complained', error: 'abuse' },
            { at: '2026-11-23T07:31:00Z', recipient: 'ops@example.com', status: 'bounced', error: 'Mailbox full' },
          ],
        }),
      ),
      'PUT /api/query-schedulers/q1/': () => ({ status: 200, body: { message: 'ok', data: task('q1', { version: 3 }) } }),
    });
    renderAt('/settings/create-query/encashment/q1', ALL);
    await waitFor(() => expect(input('schedule-name').value).toBe('Query q1'));
    const deliveries = within(screen.getByTestId('schedule-deliveries'));
    expect(deliveries.getByText('Last run Nov 23, 2026, 8:30 AM: sent')).toBeTruthy();
    expect(deliveries.getByText('Bounced')).toBeTruthy();
    expect(deliveries.getByText('Mailbox full')).toBeTruthy();
    expect(deliveries.getByText('Marked as spam')).toBeTruthy();
    expect(screen.getByTestId('schedule-preset').textContent).toBe('Every week');
    fireEvent.click(screen.getByTestId('schedule-active'));
    fireEvent.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(calls(api, 'PUT', '/api/query-schedulers/q1/')).toHaveLength(1));
    expect(calls(api, 'PUT', '/api/query-schedulers/q1/')[0].body).toMatchObject({ status: 'paused', version: 2, recipients: { user_ids: ['e1'], emails: ['ops@example.com'] } });
  });

  it('shows the deliveries withheld from a recipient with the reason, each with its file, and why the system paused the query', async () => {
    const gone = 'The template this task follows was deleted or is no longer shared with its owner: choose another definition to resume it.';
    serve({
      'GET /api/query-schedulers/q1/': data(
        task('q1', {
          status: 'paused',
          next_run: null,
          paused_reason: gone,
          last_run: { at: '2026-11-23T07:30:00Z', report_id: 'r1', report_ids: ['r1', 'r2'], status: 'done', error: null },
          deliveries: [
            { at: '2026-11-23T07:31:00Z', recipient: 'bea@example.com', status: 'withheld', error: 'The user may not export the encashment report.', report_id: null, file_name: null },
            { at: '2026-11-23T07:31:00Z', recipient: 'ann@example.com', status: 'sent', error: null, report_id: 'r2', file_name: 'cash-hall-a.csv' },
            { at: '2026-11-23T07:31:00Z', recipient: 'ops@example.com', status: 'sent', error: null, report_id: 'r1', file_name: 'cash.csv' },
          ],
        }),
      ),
    });
    renderAt('/settings/create-query/encashment/q1', ALL);
    expect((await screen.findByTestId('schedule-paused-reason')).textContent).toBe(`Paused by the system${gone}`);
    const deliveries = within(screen.getByTestId('schedule-deliveries'));
    expect(deliveries.getByTestId('schedule-last-run').textContent).toBe('Last run Nov 23, 2026, 8:30 AM: sent · 2 files (one per reach and language of the recipients)');
    const rows = deliveries.getAllByTestId('schedule-delivery');
    expect(rows.map((row) => row.getAttribute('data-status'))).toEqual(['withheld', 'sent', 'sent']);
    const withheld = within(rows[0]);
    expect(withheld.getByText('Withheld').closest('.MuiChip-root')?.className).toContain('MuiChip-colorInfo');
    expect(withheld.getByText('The user may not export the encashment report.')).toBeTruthy();
    expect(within(rows[1]).getByText('cash-hall-a.csv')).toBeTruthy();
    expect(within(rows[2]).getByText('cash.csv')).toBeTruthy();
  });

  it('says which domains may receive reports and the shortest interval, and puts the server’s refusals on the recipients and the schedule', async () => {
    const api = serve({
      'GET /api/query-schedulers/next-runs/': data({ runs: ['2026-11-24T06:00:00Z', '2026-11-24T06:05:00Z'], eventbridge: 'cron(*/5 * * * ? *)' }),
      'POST /api/query-schedulers/': () => ({
        status: 400,
        body: {
          message: 'Invalid input',
          errors: {
            cron: ['Runs may be at most every 15 minutes (the operator’s setting): this schedule runs 5 minutes apart.'],
            'recipients.emails': [
              '“x@outside.net”: Mail to this domain is not allowed (allowed: *.example.org, example.com).',
              '“y@outside.net”: Mail to this domain is not allowed (allowed: *.example.org, example.com).',
            ],
          },
        },
      }),
    });
    renderAt('/settings/create-query/encashment', ALL);
    await screen.findByTestId('schedule-editor');
    await waitFor(() => expect(screen.getByTestId('schedule-emails-message').textContent).toBe('Allowed domains: example.com, *.example.org'));
    // The next runs shown are closer than the operator allows: said before saving.
    await waitFor(() =>
      expect(screen.getByTestId('schedule-interval').textContent).toBe(
        'These runs are 5 min apart: the operator allows at most one every 15 min, so the query would be refused',
      ),
    );
    fireEvent.change(screen.getByTestId('schedule-name'), { target: { value: 'Often' } });
    fireEvent.change(screen.getByTestId('schedule-emails'), { target: { value: 'x@outside.net, y@outside.net, ops@sub.example.org ' } });
    expect(screen.getByText('x@outside.net').closest('.MuiChip-root')?.className).toContain('MuiChip-colorWarning');
    expect(screen.getByText('ops@sub.example.org').closest('.MuiChip-root')?.className).not.toContain('MuiChip-colorWarning');
    fireEvent.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(calls(api, 'POST', '/api/query-schedulers/')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByTestId('schedule-emails-message').textContent).toBe(
        '“x@outside.net”: Mail to this domain is not allowed (allowed: *.example.org, example.com). “y@outside.net”: Mail to this domain is not allowed (allowed: *.example.org, example.com).',
      ),
    );
    expect(input('schedule-emails').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('schedule-cron-message').textContent).toBe('Runs may be at most every 15 minutes (the operator’s setting): this schedule runs 5 minutes apart.');
    expect(input('cron-minute').getAttribute('aria-invalid')).toBe('true');
    // Every message found its field: no form-level alert.
    expect(screen.queryByTestId('schedule-form-error')).toBeNull();

    // Changing the schedule takes its refusal away.
    fireEvent.change(input('cron-minute'), { target: { value: '30' } });
    await waitFor(() => expect(screen.queryByTestId('schedule-cron-message')).toBeNull());
    expect(input('cron-minute').getAttribute('aria-invalid')).toBe('false');
  });

  it('says reports go to users only when the operator allows no domain, and the interval when the runs are far enough apart', async () => {
    serve({ 'GET /api/settings/operator/': data(operator({ mail_domains: [], min_task_interval_minutes: 60 })) });
    renderAt('/settings/create-query/encashment', ALL);
    await screen.findByTestId('schedule-editor');
    await waitFor(() =>
      expect(screen.getByTestId('schedule-emails-message').textContent).toBe(
        'Reports are mailed to users only: an administrator may allow other domains in Settings › Data policy.',
      ),
    );
    await waitFor(() => expect(screen.getByTestId('schedule-interval').textContent).toBe('Runs at most once every 1 hr (the operator’s setting)'));
  });

  it('says so for an unknown module', async () => {
    serve();
    renderAt('/settings/create-query/planets', ALL);
    expect((await screen.findByTestId('query-unknown-module')).textContent).toContain('There is no module “planets” to schedule.');
  });

  it('speaks Italian, the schedule in words too', async () => {
    await i18next.changeLanguage('it');
    serve();
    renderAt('/settings/create-query/encashment', ALL);
    await screen.findByTestId('schedule-editor');
    expect(screen.getByTestId('schedule-words').textContent).toBe('Ogni giorno alle 07:00');
    expect(screen.getByTestId('schedule-submit').textContent).toBe('Crea query');
  });
});
