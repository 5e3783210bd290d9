import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, page, plain, type Routes } from '../../test/report-api';
import type { MapMachine, Plan, PlanningSignals, PlanRoute, RankedMachine } from '../../api/types';
import RoutePlanningPage from './pages/route-planning-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

// Leaflet needs a real browser (SVG, layout): the map is stood in for by the routes it is given.
vi.mock('./components/planning-map', () => ({
  default: ({ machines, routes }: { machines: MapMachine[]; routes: PlanRoute[] }) => (
    <div data-testid="planning-map" data-machines={machines.map((machine) => machine.id).join(',')}>
      {routes.map((route) => (
        <span key={route.employee_id} data-testid="map-route">
          {route.stops.map((stop) => stop.machine_id).join(',')}
        </span>
      ))}
    </div>
  ),
}));

const LIST = 'planning.route_planning.list';
const GENERATE = 'planning.route_planning.generate_picklist';
const CHANGE = 'planning.route_planning.change_employee';

/** A local time of the visit day as the server sends it: an instant. */
const at = (hours: number, minutes: number) => new Date(2026, 10, 24, hours, minutes).toISOString();

const quiet: PlanningSignals = {
  sold_out: 0,
  low: 0,
  empty_at_visit: 0,
  expiring: 0,
  min_days_to_empty: null,
  min_days_to_low: null,
  cash_box_minor: 2_000,
  auto_collect_minor: 10_000,
  cash_due: false,
  last_reading_at: '2026-11-23T10:00:00Z',
  last_reading_hours: 3,
  held_audits: 0,
};

function machine(id: string, name: string, patch: Partial<RankedMachine> = {}): RankedMachine {
  return {
    id,
    name,
    location_id: 'l1',
    location_name: 'Hall A',
    latitude: 45.1,
    longitude: 9.1,
    need: 'later',
    offline: false,
    visit_by: '2026-11-30',
    signals: quiet,
    units_to_bring: 0,
    currency: 'EUR',
    decimal_places: 2,
    ...patch,
  };
}

const ranked = [
  machine('m1', 'Lobby snack', { need: 'now', units_to_bring: 42, visit_by: '2026-11-24', signals: { ...quiet, sold_out: 2, cash_box_minor: 12_500, cash_due: true, min_days_to_empty: 0 } }),
  machine('m2', 'Gym drinks', { need: 'soon', offline: true, units_to_bring: 12, visit_by: '2026-11-25', signals: { ...quiet, low: 1, min_days_to_empty: 1.5 } }),
  machine('m3', 'Office coffee', { need: 'later', units_to_bring: 3 }),
];

const pins: MapMachine[] = ranked.map(({ id, name, latitude, longitude, need, offline, units_to_bring }) => ({ id, name, latitude, longitude, need, offline, units_to_bring }));

const plan: Plan = {
  visit_date: '2026-11-24',
  routes: [
    {
      employee_id: 'u1',
      employee_name: 'Ann',
      stops: [
        { machine_id: 'm2', machine_name: 'Gym drinks', latitude: 45.2, longitude: 9.2, arrival: at(7, 50), departure: at(8, 0), distance_m: 4200, units: 12 },
        { machine_id: 'm1', machine_name: 'Lobby snack', latitude: 45.1, longitude: 9.1, arrival: at(8, 20), departure: at(8, 30), distance_m: 3100, units: 42 },
      ],
      distance_m: 12_300,
      duration_s: 4500,
      start: at(7, 30),
      end: at(8, 45),
      units: 54,
    },
  ],
  unassigned: [{ machine_id: 'm3', machine_name: 'Office coffee', reason: 'shift' }],
  picklist: [
    {
      machine_id: 'm1',
      machine_name: 'Lobby snack',
      lines: [
        {
          selection: 'A1',
          product_id: 'p1',
          product_name: 'Cookies',
          current: 2,
          max: 20,
          case_size: 6,
          velocity: 3.5,
          velocity_by_weekday: [3, 4, 4, 3, 5, 2, 1],
          days_to_empty: 0.6,
          predicted_at_visit: 0,
          need: 18,
          to_bring: 24,
          price_minor: 150,
          expiry_date: null,
          components: [],
        },
      ],
    },
  ],
  totals: [{ product_id: 'p1', product_name: 'Cookies', quantity: 24, case_size: 6, components: [{ component_id: 'c1', name: 'Tray', unit: 'pcs', quantity: 4 }] }],
};

function serve(routes: Routes = {}) {
  return fakeApi({
    'GET /api/route-planning/': page(ranked),
    'GET /api/route-planning/map/': data({ machines: pins, depot: { latitude: 45, longitude: 9 } }),
    'POST /api/route-planning/generate-picklist/': data(plan),
    'POST /api/planned-routes/': () => ({ status: 201, body: { message: 'Planned routes created', data: [] } }),
    ...routes,
  });
}

function renderPage(modules: string[], url = '/planning/route-planning?visit_date=2026-11-24') {
  const routes: RouteObject[] = [
    { path: '/planning/route-planning', element: <RoutePlanningPage />, handle: { title: 'nav.routePlanning' } },
    { path: '/planning/planned-routes', element: <div data-testid="planned-routes-screen" />, handle: { title: 'nav.plannedRoutes' } },
  ];
  return renderRoutes(routes, url, signedIn(modules, { id: 'u1', name: 'Ann' }));
}

const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((call) => call.method === method && call.path === path);
const params = (call: Call | undefined) => Object.fromEntries(new URLSearchParams(call?.search ?? ''));

// A grid, a drawer and a plan on one screen: room for a slow machine.
const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('route planning', SLOW, () => {
  it('lists the machines ranked by need with their need chips and signals', async () => {
    const api = serve();
    renderPage([LIST]);
    const grid = within(await screen.findByTestId('ranked-grid'));
    await grid.findByText('Lobby snack');
    const names = grid.getAllByRole('button', { name: /^Show the stock and cash of / }).map((button) => button.textContent);
    expect(names).toEqual(['Lobby snack', 'Gym drinks', 'Office coffee']);
    expect(grid.getAllByTestId('need-chip').map((chip) => [chip.textContent, chip.getAttribute('data-need')])).toEqual([
      ['Visit now', 'now'],
      ['Visit soon', 'soon'],
      ['Later', 'later'],
    ]);
    expect(grid.getAllByTestId('offline-chip')).toHaveLength(1);
    expect(grid.getByText('2 sold out')).toBeTruthy();
    expect(grid.getByText('Cash to collect')).toBeTruthy();
    expect(grid.getByText('1 low')).toBeTruthy();
    expect(grid.getByText('Empty in 1.5 d')).toBeTruthy();
    expect(plain(grid.getAllByText(/^Cash €125\.00 of €100\.00/)[0])).toContain('read 3 h ago');
    expect(grid.getByText('42')).toBeTruthy();
    expect(grid.getByText('by Nov 24, 2026')).toBeTruthy();
    // Sold out already says it is empty.
    expect(grid.queryByText('Empty in 0 d')).toBeNull();
    expect(params(calls(api, 'GET', '/api/route-planning/').at(-1))).toEqual({ visit_date: '2026-11-24', need: 'all', page: '1', page_size: '25' });
    expect(params(calls(api, 'GET', '/api/route-planning/map/').at(-1))).toEqual({ visit_date: '2026-11-24' });
    expect(screen.getByTestId('planning-map').getAttribute('data-machines')).toBe('m1,m2,m3');
    // Only the list key: no checkboxes, no picklist, no settings.
    expect(grid.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByTestId('generate-panel')).toBeNull();
    expect(screen.queryByTestId('planning-settings')).toBeNull();
  });

  it('asks for the machines needing a visit and another day', async () => {
    const api = serve();
    const router = renderPage([LIST]);
    await within(await screen.findByTestId('ranked-grid')).findByText('Lobby snack');
    fireEvent.click(screen.getByTestId('planning-need-visit'));
    await waitFor(() => expect(params(calls(api, 'GET', '/api/route-planning/').at(-1)).need).toBe('visit'));
    fireEvent.change(screen.getByTestId('planning-visit-date'), { target: { value: '2026-11-26' } });
    await waitFor(() => expect(params(calls(api, 'GET', '/api/route-planning/map/').at(-1))).toEqual({ visit_date: '2026-11-26' }));
    expect(router.state.location.search).toContain('visit_date=2026-11-26');
  });

  it('generates the picklist for the machines needing a visit, shows the stops in order and saves them in that order', async () => {
    const api = serve();
    const router = renderPage([LIST, GENERATE]);
    await within(await screen.findByTestId('ranked-grid')).findByText('Lobby snack');
    // The refiller is oneself without the change-employee key.
    expect(screen.getByTestId('planning-refiller-self').textContent).toBe('Ann');
    fireEvent.click(await screen.findByRole('button', { name: 'Select all needing a visit (2)' }));
    expect(screen.getByTestId('planning-selected-count').textContent).toBe('2 machines chosen');
    fireEvent.change(screen.getByTestId('planning-van-capacity'), { target: { value: '500' } });
    fireEvent.click(screen.getByTestId('planning-generate'));

    await waitFor(() => expect(calls(api, 'POST', '/api/route-planning/generate-picklist/')).toHaveLength(1));
    expect(calls(api, 'POST', '/api/route-planning/generate-picklist/')[0].body).toEqual({
      visit_date: '2026-11-24',
      machine_ids: ['m1', 'm2'],
      employee_ids: ['u1'],
      van_capacity: 500,
    });
    const route = within(await screen.findByTestId('plan-route-u1'));
    const stops = route.getAllByTestId('plan-stop');
    expect(stops.map((stop) => stop.getAttribute('data-machine'))).toEqual(['m2', 'm1']);
    expect(within(stops[0]).getByText('Gym drinks')).toBeTruthy();
    expect(within(stops[0]).getByText('7:50 AM')).toBeTruthy();
    expect(within(stops[0]).getByText('4.2 km')).toBeTruthy();
    expect(plain(route.getByText(/^2 stops/))).toBe('2 stops · 12.3 km · 1 hr 15 min · 7:30 AM–8:45 AM · 54 units');
    expect(screen.getByTestId('map-route').textContent).toBe('m2,m1');
    expect(within(screen.getByTestId('plan-unassigned')).getByText('Office coffee: it does not fit in the shift')).toBeTruthy();
    expect(within(screen.getByTestId('plan-totals')).getByText('4 × Tray (pcs)')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('plan-picklist')).getByText(/^Lobby snack/));
    expect(within(screen.getByTestId('plan-picklist-m1')).getByText('Cookies')).toBeTruthy();

    fireEvent.click(screen.getByTestId('plan-save'));
    await waitFor(() => expect(calls(api, 'POST', '/api/planned-routes/')).toHaveLength(1));
    expect(calls(api, 'POST', '/api/planned-routes/')[0].body).toEqual({
      visit_date: '2026-11-24',
      route_type: 'refill',
      routes: [{ employee_id: 'u1', machine_ids: ['m2', 'm1'] }],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/planning/planned-routes'));
    expect(toasts.success).toHaveBeenCalledWith('Planned routes saved');
  });

  it('takes the refillers from the active users and the machines from the checkboxes', async () => {
    const api = serve({
      'GET /api/users/': page([
        { id: 'u1', name: 'Ann', active: true },
        { id: 'u7', name: 'Marco Bianchi', active: true },
      ]),
    });
    renderPage([LIST, GENERATE, CHANGE, 'settings.users.list']);
    const grid = within(await screen.findByTestId('ranked-grid'));
    await grid.findByText('Office coffee');
    const boxes = grid.getAllByRole('checkbox', { name: 'Select row' });
    fireEvent.click(boxes[2]);
    fireEvent.click(boxes[0]);
    expect(screen.getByTestId('planning-selected-count').textContent).toBe('2 machines chosen');

    const refillers = screen.getByTestId('planning-refillers');
    fireEvent.mouseDown(refillers);
    fireEvent.click(await screen.findByRole('option', { name: 'Marco Bianchi' }));
    await waitFor(() => expect(params(calls(api, 'GET', '/api/users/')[0])).toMatchObject({ status: 'active' }));
    fireEvent.click(screen.getByTestId('planning-generate'));
    await waitFor(() => expect(calls(api, 'POST', '/api/route-planning/generate-picklist/')).toHaveLength(1));
    expect(calls(api, 'POST', '/api/route-planning/generate-picklist/')[0].body).toMatchObject({ machine_ids: ['m3', 'm1'], employee_ids: ['u7'] });
  });

  it('shows why the server refused the picklist', async () => {
    serve({
      'POST /api/route-planning/generate-picklist/': () => ({
        status: 400,
        body: { message: 'Invalid input', errors: { employee_ids: ['Ann cannot reach Gym drinks.'] } },
      }),
    });
    renderPage([LIST, GENERATE]);
    fireEvent.click(await screen.findByRole('button', { name: 'Select all needing a visit (2)' }));
    fireEvent.click(screen.getByTestId('planning-generate'));
    expect((await screen.findByTestId('generate-error')).textContent).toBe('Invalid inputAnn cannot reach Gym drinks.');
    // Each field error is a line of its own under the message.
    expect(screen.getAllByTestId('generate-error-reason').map((item) => item.textContent)).toEqual(['Ann cannot reach Gym drinks.']);
    expect(screen.queryByTestId('plan')).toBeNull();
  });

  it('opens a machine’s selections and cash from its row', async () => {
    const api = serve({
      'GET /api/route-planning/machines/m1/products/': data(plan.picklist[0].lines),
      'GET /api/route-planning/machines/m1/machine-cash/': data({
        currency: 'EUR',
        decimal_places: 2,
        cash_box_minor: 12_500,
        bill_stacker_minor: 5_000,
        tubes_minor: 1_250,
        read_at: '2026-11-23T10:00:00Z',
        last_collection: { at: '2026-11-20T09:00:00Z', bag_no: 'B-3', collected_minor: 30_000, employee_name: 'Marco Bianchi' },
        expected_cash_minor: 12_000,
        auto_collect_minor: 10_000,
        collect: true,
      }),
    });
    renderPage([LIST]);
    const grid = within(await screen.findByTestId('ranked-grid'));
    fireEvent.click(await grid.findByRole('button', { name: 'Show the stock and cash of Lobby snack' }));
    const drawer = within(await screen.findByTestId('machine-drawer'));
    await within(drawer.getByTestId('machine-products')).findByText('Cookies');
    expect(drawer.getByText('3.5')).toBeTruthy();
    expect(drawer.getByText('0.6')).toBeTruthy();
    expect(drawer.getByText('24')).toBeTruthy();
    expect((await drawer.findByTestId('machine-cash-cash-box')).textContent).toBe('€125.00');
    expect(drawer.getByText('Collect')).toBeTruthy();
    expect(drawer.getByTestId('machine-cash-last-collection').textContent).toContain('Marco Bianchi');
    expect(params(calls(api, 'GET', '/api/route-planning/machines/m1/products/')[0])).toEqual({ visit_date: '2026-11-24' });
  });

  it('shows the server’s refusal of the settings', async () => {
    const settings = {
      low_share_pct: 25,
      expiry_days: 3,
      auto_collect_minor: 10_000,
      stale_hours: 24,
      velocity_days: 28,
      horizon_days: 2,
      van_capacity: 800,
      shift_start: '07:30',
      shift_end: '16:30',
      service_minutes: 10,
      road_factor: 1.3,
      speed_kmh: 40,
      depot_latitude: null,
      depot_longitude: null,
      version: 3,
    };
    const api = serve({
      'GET /api/route-planning/settings/': data(settings),
      'PUT /api/route-planning/settings/': () => ({ status: 403, body: { message: 'Only a user with access to all machines may change the planning settings.', errors: {} } }),
    });
    renderPage([LIST, GENERATE]);
    fireEvent.click(await screen.findByTestId('planning-settings'));
    const lowShare = (await screen.findByTestId('settings-low_share_pct')) as HTMLInputElement;
    expect(lowShare.value).toBe('25');
    fireEvent.change(lowShare, { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('planning-settings-submit'));
    await waitFor(() => expect(calls(api, 'PUT', '/api/route-planning/settings/')).toHaveLength(1));
    expect(calls(api, 'PUT', '/api/route-planning/settings/')[0].body).toEqual({ ...settings, low_share_pct: 30 });
    expect(await screen.findByText('Only a user with access to all machines may change the planning settings.')).toBeTruthy();
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    serve();
    renderPage([LIST]);
    const grid = within(await screen.findByTestId('ranked-grid'));
    await grid.findByText('Lobby snack');
    expect(grid.getAllByTestId('need-chip').map((chip) => chip.textContent)).toEqual(['À visiter maintenant', 'À visiter bientôt', 'Plus tard']);
    expect(grid.getByText('2 en rupture')).toBeTruthy();
  });
});
