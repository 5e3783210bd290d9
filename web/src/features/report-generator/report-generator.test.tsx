import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, filterRoutes, page, type Routes } from '../../test/report-api';
import type { Report, ReportTemplate } from '../../api/types';
import ReportEditPage from './pages/report-edit-page';
import ReportGeneratorPage from './pages/report-generator-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

const ALL = ['reports_list', 'templates_list', 'run', 'new', 'delete_report', 'delete_template', 'edit_template'].map((part) => `reports.report_generator.${part}`);
const key = (...parts: string[]) => parts.map((part) => `reports.report_generator.${part}`);

function report(id: string, patch: Partial<Report> = {}): Report {
  return {
    id,
    name: `Report ${id}`,
    module: 'encashment',
    template_id: null,
    format: 'csv',
    graph: 'none',
    visibility: 'private',
    status: 'done',
    archived: false,
    progress: 100,
    error: null,
    rows: 12,
    file_name: `report-${id}.csv`,
    requested_by: { id: 'u1', name: 'Ann' },
    created_at: '2026-11-23T10:00:00Z',
    updated_at: '2026-11-23T10:01:00Z',
    finished_at: '2026-11-23T10:01:00Z',
    available: true,
    unavailable_reason: null,
    recipients: [],
    task_id: null,
    ...patch,
  };
}

function template(id: string, patch: Partial<ReportTemplate> = {}): ReportTemplate {
  return {
    id,
    name: `Template ${id}`,
    module: 'encashment',
    params: { period: 'previous_month', machines: 'm1' },
    format: 'csv',
    graph: 'none',
    columns: [],
    visibility: 'public',
    created_by: { id: 'u1', name: 'Ann' },
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    version: 3,
    editable: true,
    copyable: true,
    ...patch,
  };
}

const MODULES = [
  { id: 'sales_overview', name: 'Sales overview' },
  { id: 'encashment', name: 'Encashment' },
  { id: 'inventory', name: 'Inventory' },
];
const COLUMNS = [
  { id: 'date', name: 'Date' },
  { id: 'machine', name: 'Machine' },
  { id: 'bag_no', name: 'Bag no.' },
];
const PREVIEW = { header: ['Date', 'Machine'], rows: [['Nov 18, 2026', 'Lobby snack']], total_rows: 57 };

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/filters/reports/generator/modules/': data(MODULES),
    'GET /api/reports/generator/columns/': (call) => ({
      status: 200,
      body: { data: new URLSearchParams(call.search).get('module') === 'sales_overview' ? [] : COLUMNS },
    }),
    'GET /api/reports/generator/reports/': page([report('r1')]),
    'GET /api/reports/generator/templates/': page([template('t1'), template('t2', { editable: false, name: 'Shared T2' })]),
    'POST /api/reports/generator/preview/': data(PREVIEW),
    ...routes,
  });
}

const landed = (testId: string): RouteObject['element'] => <div data-testid={testId} />;

function renderAt(url: string, modules: string[]) {
  const routes: RouteObject[] = [
    { path: '/report/report-generator', element: <ReportGeneratorPage />, handle: { title: 'nav.reportGenerator' } },
    { path: '/report/create-report', element: <ReportEditPage />, handle: { title: 'nav.createReport' } },
    { path: '/report/create-report/:templateId', element: <ReportEditPage />, handle: { title: 'nav.editTemplate' } },
    { path: '*', element: landed('elsewhere') },
  ];
  return renderRoutes(routes, url, signedIn(modules));
}

const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((call) => call.method === method && call.path === path);
const grid = async (name: string) => within(await screen.findByTestId(`${name}-grid`));

// Screens with many fields and debounced requests: room for a slow machine.
const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('reports list', SLOW, () => {
  it('shows a running report’s progress, asks again every 2 s while one runs, and stops once none does', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let polls = 0;
    const api = serve({
      'GET /api/reports/generator/reports/': () => {
        polls += 1;
        const rows = polls === 1 ? [report('r1', { status: 'running', progress: 40, rows: 0 }), report('r2')] : [report('r1'), report('r2')];
        return page(rows)();
      },
    });
    renderAt('/report/report-generator', ALL);
    const reports = await grid('reports');
    await reports.findByText('Running');
    expect(reports.getByRole('progressbar', { name: 'Prepared 40 %' })).toBeTruthy();
    // Only the finished report has its file.
    expect(reports.queryByRole('button', { name: 'Download: Report r1' })).toBeNull();
    expect(reports.getByRole('button', { name: 'Download: Report r2' })).toBeTruthy();
    expect(reports.queryByRole('button', { name: 'Archive: Report r1' })).toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(2100);
    });
    await waitFor(() => expect(polls).toBe(2));
    await reports.findByRole('button', { name: 'Download: Report r1' });
    expect(reports.queryByRole('progressbar')).toBeNull();

    // Nothing is prepared any more: no more polls.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(6500);
    });
    expect(polls).toBe(2);
    expect(calls(api, 'GET', '/api/reports/generator/reports/').at(-1)?.search).toContain('archived=false');
  });

  it('downloads a finished report’s file with the token, archives it and shows the archived ones', async () => {
    const api = serve({
      'GET /api/reports/generator/r2/export/': () => ({ status: 200, body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="cash.csv"' } }),
      'POST /api/reports/generator/reports/r2/change-status/': () => ({ status: 200, body: { message: 'ok', data: report('r2', { archived: true }) } }),
      'GET /api/reports/generator/reports/': (call) =>
        page(new URLSearchParams(call.search).get('archived') === 'true' ? [report('r3', { archived: true })] : [report('r2')])(),
    });
    const created = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderAt('/report/report-generator', key('reports_list'));
    const reports = await grid('reports');
    fireEvent.click(await reports.findByRole('button', { name: 'Download: Report r2' }));
    await waitFor(() => expect(clicks).toHaveBeenCalled());
    const anchor = clicks.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(anchor.download).toBe('cash.csv');
    const exported = calls(api, 'GET', '/api/reports/generator/r2/export/');
    expect(exported).toHaveLength(1);
    // Without the delete key, no delete.
    expect(reports.queryByRole('button', { name: 'Delete: Report r2' })).toBeNull();

    fireEvent.click(reports.getByRole('button', { name: 'Archive: Report r2' }));
    await waitFor(() => expect(calls(api, 'POST', '/api/reports/generator/reports/r2/change-status/')[0]?.body).toEqual({ status: 'archived' }));
    expect(toasts.success).toHaveBeenCalledWith('Report archived');

    fireEvent.mouseDown(screen.getByTestId('reports-archived-filter'));
    fireEvent.click(await screen.findByRole('option', { name: 'Archived reports' }));
    await (await grid('reports')).findByRole('button', { name: 'Restore: Report r3' });
    clicks.mockRestore();
  });
});

describe('reports beyond the reader’s reach', SLOW, () => {
  it('disables the download of a report the reader may no longer see, with the reason, and shows a scheduled report’s recipients', async () => {
    const api = serve({
      'GET /api/reports/generator/reports/': page([
        report('r1', { available: false, unavailable_reason: 'The file covers 2 machines outside your access.' }),
        report('r2', { task_id: 'q1', recipients: ['ops@example.com', 'ann@example.com', 'bea@example.com'] }),
      ]),
    });
    renderAt('/report/report-generator', key('reports_list'));
    const reports = await grid('reports');
    const refused = await reports.findByRole('button', { name: 'Download: Report r1' });
    expect((refused as HTMLButtonElement).disabled).toBe(true);
    expect(reports.getByTestId('report-unavailable').textContent).toBe('The file covers 2 machines outside your access.');
    expect((reports.getByRole('button', { name: 'Download: Report r2' }) as HTMLButtonElement).disabled).toBe(false);
    expect(reports.getByTestId('report-recipients').textContent).toBe('To ops@example.com, ann@example.com and 1 more');
    fireEvent.mouseOver(reports.getByTestId('report-recipients'));
    expect(await screen.findByText('Sent to: ops@example.com, ann@example.com, bea@example.com')).toBeTruthy();
    fireEvent.click(refused);
    expect(calls(api, 'GET', '/api/reports/generator/r1/export/')).toHaveLength(0);
  });
});

describe('templates list', SLOW, () => {
  it('hides run, edit and delete without their keys', async () => {
    serve();
    renderAt('/report/report-generator?tab=templates', key('templates_list'));
    const templates = await grid('templates');
    await templates.findByText('Template t1');
    expect(templates.queryByRole('button', { name: /^(Run|Edit|Delete): / })).toBeNull();
    // One list only: no tabs, and no "New report" without its key.
    expect(screen.queryByTestId('tab-templates')).toBeNull();
    expect(screen.queryByTestId('new-report')).toBeNull();
  });

  it('shows each with its key, edit and delete only on the caller’s own, and runs a template', async () => {
    const api = serve({
      'POST /api/reports/generator/templates/t2/generate/': () => ({ status: 202, body: { message: 'Report queued', data: report('r9', { status: 'queued', progress: 0 }) } }),
    });
    const router = renderAt('/report/report-generator?tab=templates', ALL);
    const templates = await grid('templates');
    await templates.findByText('Template t1');
    for (const name of ['Run: Template t1', 'Edit: Template t1', 'Delete: Template t1', 'Run: Shared T2']) {
      expect(templates.getByRole('button', { name }), name).toBeTruthy();
    }
    expect(templates.queryByRole('button', { name: 'Edit: Shared T2' })).toBeNull();
    expect(templates.queryByRole('button', { name: 'Delete: Shared T2' })).toBeNull();
    expect(screen.getByTestId('new-report')).toBeTruthy();

    fireEvent.click(templates.getByRole('button', { name: 'Run: Shared T2' }));
    await waitFor(() => expect(calls(api, 'POST', '/api/reports/generator/templates/t2/generate/')).toHaveLength(1));
    expect(toasts.success).toHaveBeenCalledWith('“Shared T2” is being prepared');
    // The reports tab follows the new report.
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await screen.findByTestId('reports-grid');
  });

  it('copies another user’s template instead of editing or deleting it, under the name given', async () => {
    const api = serve({
      'POST /api/reports/generator/templates/t2/copy/': (call) =>
        (call.body as { name: string }).name === 'Template t1'
          ? { status: 400, body: { message: 'Invalid input', errors: { name: ['A template with this name exists'] } } }
          : { status: 201, body: { message: 'Template copied', data: template('t9', { name: 'Mine now' }) } },
      'GET /api/reports/generator/templates/t9/': data(template('t9', { name: 'Mine now' })),
    });
    const router = renderAt('/report/report-generator?tab=templates', ALL);
    const templates = await grid('templates');
    await templates.findByText('Shared T2');
    expect(templates.getByRole('button', { name: 'Copy: Shared T2' })).toBeTruthy();
    expect(templates.queryByRole('button', { name: 'Copy: Template t1' })).toBeNull();
    expect(templates.queryByRole('button', { name: 'Edit: Shared T2' })).toBeNull();
    expect(templates.queryByRole('button', { name: 'Delete: Shared T2' })).toBeNull();

    fireEvent.click(templates.getByRole('button', { name: 'Copy: Shared T2' }));
    const name = (await screen.findByTestId('copy-template-name')) as HTMLInputElement;
    // A name the server refuses shows on the field.
    fireEvent.change(name, { target: { value: 'Template t1' } });
    fireEvent.click(screen.getByTestId('copy-template-submit'));
    await screen.findByText('A template with this name exists');
    expect(toasts.error).toHaveBeenCalledWith('The template could not be copied.');
    // An empty name is refused before anything is sent.
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(screen.getByTestId('copy-template-submit'));
    await screen.findByText('This field is required');
    expect(calls(api, 'POST', '/api/reports/generator/templates/t2/copy/')).toHaveLength(1);

    fireEvent.change(name, { target: { value: 'Mine now' } });
    fireEvent.click(screen.getByTestId('copy-template-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/create-report/t9'));
    expect(calls(api, 'POST', '/api/reports/generator/templates/t2/copy/').at(-1)?.body).toEqual({ name: 'Mine now' });
  });

  it('offers no copy without the key to make templates', async () => {
    serve();
    renderAt('/report/report-generator?tab=templates', key('templates_list', 'run', 'edit_template'));
    const templates = await grid('templates');
    await templates.findByText('Shared T2');
    expect(templates.queryByRole('button', { name: /^Copy: / })).toBeNull();
  });

  it('opens a template to edit with its key only', async () => {
    serve();
    const router = renderAt('/report/report-generator?tab=templates', [...key('templates_list', 'edit_template')]);
    fireEvent.click(await (await grid('templates')).findByRole('button', { name: 'Edit: Template t1' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/create-report/t1'));
  });
});

describe('report form', SLOW, () => {
  const chooseModule = async (label: string) => {
    fireEvent.mouseDown(screen.getByTestId('report-module'));
    fireEvent.click(await screen.findByRole('option', { name: label }));
  };

  it('sends what the form says: the module’s filters, the file’s format and columns, the visibility', async () => {
    const api = serve({
      'POST /api/reports/generator/templates/': () => ({ status: 201, body: { message: 'Template created', data: template('t9') } }),
    });
    const router = renderAt('/report/create-report', key('new'));
    await screen.findByTestId('report-choose-module');
    fireEvent.change(screen.getByTestId('report-name'), { target: { value: '  Cash by bag ' } });
    await chooseModule('Encashment');
    // The encashment's filter bar: its employees, no value or grouping.
    expect(await screen.findByTestId('report-employees')).toBeTruthy();
    expect(screen.queryByTestId('report-value')).toBeNull();
    fireEvent.mouseDown(screen.getByTestId('report-period'));
    fireEvent.click(await screen.findByTestId('report-period-previous_month'));

    fireEvent.mouseDown(screen.getByTestId('report-format'));
    fireEvent.click(await screen.findByTestId('report-format-csv'));
    expect(screen.queryByTestId('report-graph')).toBeNull();
    const columns = screen.getByTestId('report-columns');
    fireEvent.mouseDown(columns);
    fireEvent.click(await screen.findByRole('option', { name: 'Machine' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Date' }));
    fireEvent.click(screen.getByTestId('report-visibility-public'));

    fireEvent.click(screen.getByTestId('report-save-template'));
    await waitFor(() => expect(calls(api, 'POST', '/api/reports/generator/templates/')).toHaveLength(1));
    expect(calls(api, 'POST', '/api/reports/generator/templates/')[0].body).toEqual({
      name: 'Cash by bag',
      module: 'encashment',
      params: { period: 'previous_month' },
      format: 'csv',
      graph: 'none',
      columns: ['date', 'machine'],
      visibility: 'public',
    });
    expect(toasts.success).toHaveBeenCalledWith('Template saved');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=templates'));
  });

  it('previews the first rows as the definition stands, and generates a report now', async () => {
    const api = serve({
      'POST /api/reports/generator/generate/': () => ({ status: 202, body: { message: 'Report queued', data: report('r5', { status: 'queued' }) } }),
    });
    const router = renderAt('/report/create-report', key('new', 'run'));
    await screen.findByTestId('report-choose-module');
    expect(calls(api, 'POST', '/api/reports/generator/preview/')).toHaveLength(0);
    await chooseModule('Sales overview');
    // The sales overview draws a chart, and its columns are fixed.
    expect(await screen.findByTestId('report-graph')).toBeTruthy();
    await screen.findByText('The sales overview’s columns follow its grouping and period.');
    const table = await screen.findByTestId('report-preview-table');
    expect(within(table).getByText('Lobby snack')).toBeTruthy();
    expect(screen.getByText('First 1 of 57 rows')).toBeTruthy();
    expect(calls(api, 'POST', '/api/reports/generator/preview/').at(-1)?.body).toEqual({
      name: 'preview',
      module: 'sales_overview',
      params: { period: 'current_month', value: 'sales', group_by: 'machine', grouping_period: 'day' },
      format: 'xlsx',
      graph: 'none',
      columns: [],
      visibility: 'private',
    });
    fireEvent.mouseDown(screen.getByTestId('report-graph'));
    fireEvent.click(await screen.findByTestId('report-graph-bar'));

    // Without a name nothing is sent.
    fireEvent.click(screen.getByTestId('report-generate'));
    await screen.findByText('This field is required');
    expect(calls(api, 'POST', '/api/reports/generator/generate/')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('report-name'), { target: { value: 'Sales now' } });
    fireEvent.click(screen.getByTestId('report-generate'));
    await waitFor(() => expect(calls(api, 'POST', '/api/reports/generator/generate/')).toHaveLength(1));
    expect(calls(api, 'POST', '/api/reports/generator/generate/')[0].body).toMatchObject({ name: 'Sales now', module: 'sales_overview', graph: 'bar' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/report-generator'));
  });

  it('puts the server’s field errors on the fields and the filters', async () => {
    serve({
      'POST /api/reports/generator/templates/': () => ({
        status: 400,
        body: { message: 'Invalid input', errors: { name: ['A template with this name exists'], 'params.machines': ['Unknown machine: m9'], date_from: ['Not a date.'] } },
      }),
    });
    renderAt('/report/create-report', key('new'));
    await screen.findByTestId('report-choose-module');
    fireEvent.change(screen.getByTestId('report-name'), { target: { value: 'Cash' } });
    await chooseModule('Encashment');
    fireEvent.click(screen.getByTestId('report-save-template'));
    await screen.findByText('A template with this name exists');
    expect(screen.getByTestId('report-name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('report-params-error').textContent).toBe('Unknown machine: m9 Not a date.');
    // Every message found its place: no form-level alert besides them.
    expect(screen.queryByTestId('report-form-error')).toBeNull();
    expect(toasts.error).toHaveBeenCalledWith('The template could not be saved.');
  });

  it('edits a template with the version read, and says when someone changed it since', async () => {
    let reply = { status: 409, body: { message: 'Version conflict', errors: {} } as unknown };
    const api = serve({
      'GET /api/reports/generator/templates/t1/': data(template('t1')),
      'PUT /api/reports/generator/templates/t1/': () => reply,
    });
    renderAt('/report/create-report/t1', ALL);
    await waitFor(() => expect((screen.getByTestId('report-name') as HTMLInputElement).value).toBe('Template t1'));
    fireEvent.click(screen.getByTestId('report-save-template'));
    await screen.findByText('Someone else changed this record. Reload it and apply your changes again.');
    expect(calls(api, 'PUT', '/api/reports/generator/templates/t1/')[0].body).toEqual({
      name: 'Template t1',
      module: 'encashment',
      params: { period: 'previous_month', machines: 'm1' },
      format: 'csv',
      graph: 'none',
      columns: [],
      visibility: 'public',
      version: 3,
    });
    reply = { status: 200, body: { message: 'ok', data: template('t1', { version: 4 }) } };
    fireEvent.click(screen.getByTestId('report-save-template'));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Template updated'));
  });

  it('lets someone who may not change a template generate from it', async () => {
    serve({ 'GET /api/reports/generator/templates/t2/': data(template('t2', { editable: false, copyable: false })) });
    renderAt('/report/create-report/t2', ALL);
    await screen.findByText('Only its author can change this template; you may generate a report from it.');
    expect(screen.queryByTestId('report-save-template')).toBeNull();
    expect(screen.getByTestId('report-generate')).toBeTruthy();
  });

  it('offers a copy of another user’s template, and opens the copy to change it', async () => {
    const api = serve({
      'GET /api/reports/generator/templates/t2/': data(template('t2', { editable: false, name: 'Shared T2', created_by: { id: 'u7', name: 'Bea' } })),
      'GET /api/reports/generator/templates/t9/': data(template('t9', { name: 'My cash', visibility: 'private' })),
      'POST /api/reports/generator/templates/t2/copy/': () => ({ status: 201, body: { message: 'Template copied', data: template('t9', { name: 'My cash', visibility: 'private' }) } }),
    });
    const router = renderAt('/report/create-report/t2', ALL);
    expect((await screen.findByTestId('report-template-read-only')).textContent).toBe(
      'Only its author can change this template: save a copy of your own to change it, or generate a report from it.',
    );
    expect(screen.queryByTestId('report-save-template')).toBeNull();
    fireEvent.click(screen.getByTestId('report-copy-template'));
    const name = (await screen.findByTestId('copy-template-name')) as HTMLInputElement;
    expect(name.value).toBe('Shared T2');
    fireEvent.change(name, { target: { value: ' My cash ' } });
    fireEvent.click(screen.getByTestId('copy-template-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/create-report/t9'));
    expect(calls(api, 'POST', '/api/reports/generator/templates/t2/copy/')[0].body).toEqual({ name: 'My cash' });
    // Nothing else was sent: the copy is the server's, not the form's.
    expect(calls(api, 'PUT', '/api/reports/generator/templates/t2/')).toHaveLength(0);
    expect(toasts.success).toHaveBeenCalledWith('Copy saved: you may now change it');
    // The copy is the caller's own: it opens to be changed.
    await screen.findByTestId('report-save-template');
    await waitFor(() => expect((screen.getByTestId('report-name') as HTMLInputElement).value).toBe('My cash'));
    expect(screen.queryByTestId('report-copy-template')).toBeNull();
  });

  it('lets someone without the edit key generate from a template, not change it', async () => {
    serve({ 'GET /api/reports/generator/templates/t1/': data(template('t1')) });
    renderAt('/report/create-report/t1', key('new', 'run'));
    expect((await screen.findByTestId('report-template-read-only')).textContent).toBe(
      'Changing templates needs another permission; you may generate a report from this one.',
    );
    expect(screen.queryByTestId('report-save-template')).toBeNull();
    expect(screen.getByTestId('report-generate')).toBeTruthy();
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    serve();
    renderAt('/report/create-report', key('new', 'run'));
    await screen.findByText('Choisissez un module pour régler ses filtres.');
    expect(screen.getByTestId('report-generate').textContent).toBe('Générer maintenant');
  });
});
