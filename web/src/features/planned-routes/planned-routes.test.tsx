import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, filterRoutes, page, plain, type Routes } from '../../test/report-api';
import type { PicklistLine, PlannedRoute, RouteStop, StopPicklist } from '../../api/types';
import PlannedRoutePage from './pages/planned-route-page';
import PlannedRoutesPage from './pages/planned-routes-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

const keys = (...parts: string[]) => parts.map((part) => `planning.planned_routes.${part}`);
const ALL = [...keys('list', 'edit', 'delete', 'export', 'change_employee'), 'settings.machines.edit_quantity_expiry'];

function plannedRoute(id: string, patch: Partial<PlannedRoute> = {}): PlannedRoute {
  return {
    id,
    name: `Tuesday north ${id}`,
    route_type: 'refill',
    created_at: '2026-11-23T09:00:00Z',
    visit_date: '2026-11-24',
    picklist_date: '2026-11-24',
    picklist_stale: false,
    expires_at: '2026-11-24T22:59:59Z',
    employee_id: 'u1',
    employee_name: 'Ann',
    status: 'planned',
    distance_m: 12_300,
    duration_s: 4500,
    version: 2,
    machines: [],
    stops: 2,
    visited: 0,
    ...patch,
  };
}

/** A local time of the visit day as the server sends it: an instant. */
const at = (hours: number, minutes: number) => new Date(2026, 10, 24, hours, minutes).toISOString();

const money = { currency: 'EUR', decimal_places: 2 };

const stops: RouteStop[] = [
  { order: 2, machine_id: 'm1', machine_name: 'Lobby snack', location_name: 'Hall A', latitude: 45.1, longitude: 9.1, arrival: at(8, 20), distance_m: 3100, units: 42, visit: null, ...money },
  {
    order: 1,
    machine_id: 'm2',
    machine_name: 'Gym drinks',
    location_name: 'Gym',
    latitude: 45.2,
    longitude: 9.2,
    arrival: at(7, 50),
    distance_m: 4200,
    units: 12,
    visit: {
      at: '2026-11-24T07:55:00Z',
      employee_id: 'u1',
      employee_name: 'Ann',
      request_id: 'q0',
      filled: 11,
      removed: 1,
      cash_bag: 'B-17',
      collected_minor: 4_550,
      lines: [{ selection: 'B1', product_id: 'p-B1', product_name: 'Product B1', found: 9, filled: 11, removed: 1, removed_reason: 'expired', after: 19 }],
    },
    ...money,
  },
];

function line(selection: string, patch: Partial<PicklistLine> = {}): PicklistLine {
  return {
    selection,
    product_id: `p-${selection}`,
    product_name: `Product ${selection}`,
    current: 5,
    max: 20,
    velocity: 1.5,
    predicted_at_visit: 3,
    need: 17,
    to_bring: 17,
    case_size: null,
    components: [],
    found: null,
    filled: null,
    removed: null,
    removed_reason: null,
    ...patch,
  };
}

const picklist: StopPicklist[] = [
  { machine_id: 'm1', machine_name: 'Lobby snack', order: 2, visited: false, lines: [line('A1'), line('A2', { predicted_at_visit: 0, need: 12, to_bring: 12, max: 12 })], ...money },
  { machine_id: 'm2', machine_name: 'Gym drinks', order: 1, visited: true, lines: [line('B1', { found: 9, filled: 11, removed: 1, removed_reason: 'expired' })], ...money },
];

/** `…/values/`: each line's price and money, the stops' sums, and the totals (per currency and of the first). */
const valued = picklist.map((stop) => {
  const lines = stop.lines.map((item) => ({ ...item, price_minor: 150, to_bring_value_minor: item.to_bring * 150, filled_value_minor: (item.filled ?? 0) * 150 }));
  const sum = (field: 'to_bring_value_minor' | 'filled_value_minor') => lines.reduce((total, item) => total + item[field], 0);
  return { ...stop, lines, to_bring_value_minor: sum('to_bring_value_minor'), filled_value_minor: sum('filled_value_minor') };
});
const totals = { currency: 'EUR', to_bring_value_minor: 6_900, filled_value_minor: 1_650 };

function serve(routes: Routes = {}) {
  return fakeApi({
    ...filterRoutes(),
    'GET /api/planned-routes/': page([plannedRoute('r1', { visited: 1 }), plannedRoute('r2', { status: 'done', name: 'Monday south', employee_name: 'Marco Bianchi' })]),
    'GET /api/planned-routes/r1/': data(plannedRoute('r1')),
    'GET /api/planned-routes/r1/machines/': data(stops),
    'GET /api/planned-routes/r1/machines/products/': data(picklist),
    'GET /api/planned-routes/r1/machines/products/values/': data({ stops: valued, totals, by_currency: [totals] }),
    ...routes,
  });
}

function renderAt(url: string, modules: string[], userId = 'u1') {
  const routes: RouteObject[] = [
    { path: '/planning/planned-routes', element: <PlannedRoutesPage />, handle: { title: 'nav.plannedRoutes' } },
    { path: '/planning/planned-routes/:routeId', element: <PlannedRoutePage />, handle: { title: 'nav.plannedRoute' } },
  ];
  return renderRoutes(routes, url, signedIn(modules, { id: userId, name: 'Ann' }));
}

const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((call) => call.method === method && call.path === path);
const params = (call: Call | undefined) => Object.fromEntries(new URLSearchParams(call?.search ?? ''));
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('planned routes list', SLOW, () => {
  it('lists the routes with their status and asks with the filters', async () => {
    const api = serve();
    const router = renderAt('/planning/planned-routes', keys('list'));
    const grid = within(await screen.findByTestId('planned-routes-grid'));
    await grid.findByText('Tuesday north r1');
    expect(grid.getAllByTestId('route-status').map((chip) => chip.textContent)).toEqual(['Planned', 'Done']);
    expect(grid.getByText('1 / 2')).toBeTruthy();
    expect(grid.getAllByText('12.3 km')).toHaveLength(2);
    expect(grid.getAllByText('Refill')).toHaveLength(2);

    fireEvent.mouseDown(screen.getByTestId('planned-routes-status-filter'));
    fireEvent.click(await screen.findByRole('option', { name: 'In progress' }));
    fireEvent.change(screen.getByTestId('planned-routes-date-from'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(params(calls(api, 'GET', '/api/planned-routes/').at(-1))).toMatchObject({ status: 'in_progress', date_from: '2026-11-01' }));

    fireEvent.click(grid.getByText('Tuesday north r1'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/planning/planned-routes/r1'));
  });
});

describe('a planned route', SLOW, () => {
  it('shows its stops in order with their visits', async () => {
    serve();
    renderAt('/planning/planned-routes/r1', keys('list'));
    const table = within(await screen.findByTestId('route-stops'));
    await waitFor(() => expect(table.getAllByTestId('route-stop')).toHaveLength(2));
    const rows = table.getAllByTestId('route-stop');
    expect(rows.map((row) => row.getAttribute('data-machine'))).toEqual(['m2', 'm1']);
    expect(rows.map((row) => row.getAttribute('data-visited'))).toEqual(['yes', 'no']);
    expect(within(rows[0]).getByText(/^Visited .* by Ann$/)).toBeTruthy();
    expect(within(rows[1]).getByText('Not visited')).toBeTruthy();
    expect(within(rows[1]).getByText('8:20 AM')).toBeTruthy();
    expect(plain(screen.getByTestId('route-distance'))).toContain('12.3 km');
    // The list key alone: print, nothing else.
    expect(screen.getByTestId('route-print')).toBeTruthy();
    for (const action of ['route-start', 'route-cancel', 'route-change-employee', 'route-delete', 'route-export']) expect(screen.queryByTestId(action)).toBeNull();
    expect(screen.queryByTestId('stop-book-m1')).toBeNull();
    expect(screen.queryByTestId('stop-remove-m1')).toBeNull();
  });

  it('says when the route was moved after its picklist was computed', async () => {
    serve({ 'GET /api/planned-routes/r1/': data(plannedRoute('r1', { visit_date: '2026-11-26', picklist_date: '2026-11-24', picklist_stale: true })) });
    renderAt('/planning/planned-routes/r1', keys('list'));
    expect((await screen.findByTestId('picklist-stale')).textContent).toBe('The route was moved: its picklist was computed for Nov 24, 2026.');
  });

  it('says nothing of the picklist’s day when the route kept it', async () => {
    serve();
    renderAt('/planning/planned-routes/r1', keys('list'));
    await screen.findByTestId('route-facts');
    expect(screen.queryByTestId('picklist-stale')).toBeNull();
  });

  it('shows the server’s reason when a status move is refused', async () => {
    const api = serve({
      'POST /api/planned-routes/r1/status/': () => ({ status: 409, body: { message: 'The route expired at the end of its visit date.', errors: {} } }),
    });
    renderAt('/planning/planned-routes/r1', ALL);
    fireEvent.click(await screen.findByTestId('route-start'));
    expect((await screen.findByTestId('route-action-error')).textContent).toContain('The route expired at the end of its visit date.');
    expect(calls(api, 'POST', '/api/planned-routes/r1/status/')[0].body).toEqual({ status: 'in_progress', version: 2 });
    expect(toasts.error).toHaveBeenCalledWith('The route expired at the end of its visit date.');
    // A planned route can be cancelled, not finished.
    expect(screen.getByTestId('route-cancel')).toBeTruthy();
    expect(screen.queryByTestId('route-finish')).toBeNull();
  });

  it('removes a stop that was not visited', async () => {
    const api = serve({ 'DELETE /api/planned-routes/r1/machines/m1/': () => ({ status: 200, body: { message: 'ok', data: plannedRoute('r1') } }) });
    renderAt('/planning/planned-routes/r1', ALL);
    await screen.findByTestId('stop-remove-m1');
    expect(screen.queryByTestId('stop-remove-m2')).toBeNull();
    fireEvent.click(screen.getByTestId('stop-remove-m1'));
    fireEvent.click(await screen.findByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(calls(api, 'DELETE', '/api/planned-routes/r1/machines/m1/')).toHaveLength(1));
  });

  it('books a visit with the form, and a retry sends the same request id', async () => {
    let attempts = 0;
    const api = serve({
      'POST /api/machines/fill-from-route/': () => {
        attempts += 1;
        return attempts === 1
          ? { status: 503, body: { message: 'Service unavailable', errors: {} } }
          : { status: 200, body: { message: 'Stock filled from route successfully', data: { replayed: false, route: plannedRoute('r1'), visit: stops[1].visit } } };
      },
    });
    renderAt('/planning/planned-routes/r1', ALL);
    fireEvent.click(await screen.findByTestId('stop-book-m1'));
    const form = await screen.findByTestId('visit-form');
    // Found starts from the predicted stock, filled from the picklist.
    expect(input('visit-found-A1').value).toBe('3');
    expect(input('visit-filled-A1').value).toBe('17');
    expect(input('visit-removed-A1').value).toBe('0');
    expect(input('visit-found-A2').value).toBe('0');
    fireEvent.change(input('visit-found-A1'), { target: { value: '4' } });
    fireEvent.change(input('visit-filled-A1'), { target: { value: '16' } });
    fireEvent.change(input('visit-removed-A1'), { target: { value: '2' } });
    // Something removed needs its reason.
    fireEvent.click(screen.getByTestId('visit-submit'));
    expect(await within(form).findByText('Say why it was removed')).toBeTruthy();
    fireEvent.mouseDown(screen.getByTestId('visit-reason-A1'));
    fireEvent.click(await screen.findByRole('option', { name: 'Expired' }));
    fireEvent.change(input('visit-cash-bag'), { target: { value: ' B-18 ' } });
    fireEvent.change(input('visit-collected'), { target: { value: '12,50' } });

    fireEvent.click(screen.getByTestId('visit-submit'));
    await waitFor(() => expect(calls(api, 'POST', '/api/machines/fill-from-route/')).toHaveLength(1));
    expect(await screen.findByTestId('visit-form-error')).toBeTruthy();
    fireEvent.click(screen.getByTestId('visit-submit'));
    await waitFor(() => expect(calls(api, 'POST', '/api/machines/fill-from-route/')).toHaveLength(2));

    const [first, second] = calls(api, 'POST', '/api/machines/fill-from-route/').map((call) => call.body as { request_id: string });
    expect(first.request_id).toMatch(/^[0-9a-f-]{20,}$/);
    expect(second.request_id).toBe(first.request_id);
    expect(second).toEqual({
      route_id: 'r1',
      machine_id: 'm1',
      request_id: first.request_id,
      lines: [
        { selection: 'A1', found: 4, filled: 16, removed: 2, removed_reason: 'expired' },
        { selection: 'A2', found: 0, filled: 12, removed: 0 },
      ],
      cash_bag: 'B-18',
      collected_minor: 1250,
    });
    await waitFor(() => expect(screen.queryByTestId('visit-form')).toBeNull());
    expect(toasts.success).toHaveBeenCalledWith('Visit of Lobby snack booked');
  });

  it('says so when the server had booked the visit already (its reply’s `data.replayed`)', async () => {
    serve({
      'POST /api/machines/fill-from-route/': () => ({
        status: 200,
        body: { message: 'Stock filled from route successfully', data: { replayed: true, route: plannedRoute('r1'), visit: stops[1].visit } },
      }),
    });
    renderAt('/planning/planned-routes/r1', ALL);
    fireEvent.click(await screen.findByTestId('stop-book-m1'));
    await screen.findByTestId('visit-form');
    fireEvent.click(screen.getByTestId('visit-submit'));
    await waitFor(() => expect(toasts.info).toHaveBeenCalledWith('The visit of Lobby snack was already booked'));
    expect(toasts.success).not.toHaveBeenCalled();
  });

  it('opens a new request id for each opening of the form', async () => {
    serve();
    renderAt('/planning/planned-routes/r1', ALL);
    fireEvent.click(await screen.findByTestId('stop-book-m1'));
    const first = (await screen.findByTestId('visit-form')).getAttribute('data-request-id');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('visit-form')).toBeNull());
    fireEvent.click(screen.getByTestId('stop-book-m1'));
    const second = (await screen.findByTestId('visit-form')).getAttribute('data-request-id');
    expect(first).toBeTruthy();
    expect(second).not.toBe(first);
  });

  it('shows the visit report and the picklist with its values', async () => {
    serve();
    renderAt('/planning/planned-routes/r1?tab=visits', keys('list'));
    const report = within(await screen.findByTestId('route-visit-report'));
    await report.findByText('B-17');
    expect(report.getByText('1 of 2 stops visited')).toBeTruthy();
    expect(report.getByText('€45.50')).toBeTruthy();
    expect(report.getByText('Not visited')).toBeTruthy();

    fireEvent.click(screen.getByTestId('route-tab-picklist'));
    const lists = within(await screen.findByTestId('route-picklist'));
    await lists.findByText('Product A1');
    expect(lists.getAllByTestId(/^route-picklist-m/).map((card) => card.getAttribute('data-testid'))).toEqual(['route-picklist-m2', 'route-picklist-m1']);
    expect(lists.getByText('9')).toBeTruthy();
    expect(lists.getByText('1 (Expired)')).toBeTruthy();
    expect(plain(await screen.findByTestId('route-values-to-bring-value'))).toBe('€69.00');
    expect(plain(screen.getByTestId('route-values-filled-value'))).toBe('€16.50');
  });

  it('prints the picklist alone', async () => {
    serve();
    let printed: string | null = null;
    vi.stubGlobal('print', () => {
      printed = document.querySelector('body > .vf-print')?.textContent ?? null;
    });
    renderAt('/planning/planned-routes/r1', keys('list'));
    await waitFor(() => expect((screen.getByTestId('route-print') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('route-print'));
    expect(printed).toContain('Picklist: Tuesday north r1');
    expect(printed).toContain('1. Gym drinks');
    expect(printed).toContain('Product A2');
    expect(screen.queryByTestId('print-picklist')).toBeNull();
  });
});
