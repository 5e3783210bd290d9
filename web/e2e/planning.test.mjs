// End-to-end flow of the planning area against the real `vendfleet serve` with a seeded demo fleet
// (4 machines, 20 days ending now): route planning (the ranked list, the map drawn without tiles
// and without a single request off the server), two machines chosen, the administrator as
// refiller, the picklist generated and saved as planned routes; then the route opened, a stop's
// visit booked with the visit form, and the route's visit report showing it.
//
// Selectors it relies on (test ids unless said otherwise):
//   route planning  ranked-grid (its `.MuiDataGrid-row[data-id]` rows and their "Select row"
//                   checkboxes), planning-map (`.leaflet-container`, `path.leaflet-interactive`,
//                   no `.leaflet-tile`), planning-refillers (+ the `option` role), planning-generate,
//                   plan-route-<employee id> > plan-stop[data-machine], plan-save
//   planned routes  planned-routes-grid (the route's name as a link)
//   route page      route-stops > route-stop[data-machine][data-visited], stop-book-<machine id>,
//                   visit-form[data-request-id], visit-found-<selection>, visit-cash-bag,
//                   visit-submit, route-tab-visits, route-visit-report
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const BAG = `E2E-${Date.now().toString(36)}`;

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };
/** Requests the page sent anywhere but the server (map tiles, marker images…): there must be none. */
const offsite = [];

/** What each test leaves for the next. */
const made = { admin: null, machines: [], plan: null, route: null };

/** A call with the signed-in user's token, straight from the page. */
function call(method, path, body) {
  return apiCall(page, method, path, body);
}

const pathOf = (response) => new URL(response.url()).pathname;
const isCall = (method, path) => (response) => response.request().method() === method && pathOf(response) === path;

describe('route planning and planned routes', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ seed: { machines: 4, days: 20 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    const origin = new URL(server.baseUrl).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) offsite.push(url);
    });
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=${encodeURIComponent('/planning/route-planning')}`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/planning/route-planning');
    const me = await call('GET', '/api/users/me/');
    assert.equal(me.status, 200);
    made.admin = me.body.data;
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the ranked list and the map, drawn without tiles', async () => {
    const rows = page.getByTestId('ranked-grid').locator('.MuiDataGrid-row');
    await rows.first().waitFor();
    assert.ok((await rows.count()) >= 2, 'the demo fleet has machines to rank');
    const needs = await page.getByTestId('ranked-grid').getByTestId('need-chip').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-need')));
    assert.ok(needs.every((need) => ['now', 'soon', 'later'].includes(need)), JSON.stringify(needs));
    const rank = { now: 0, soon: 1, later: 2 };
    assert.deepEqual([...needs].sort((a, b) => rank[a] - rank[b]), needs, 'ranked by need');

    const map = page.getByTestId('planning-map');
    await map.locator('.leaflet-container').waitFor();
    assert.equal(await map.getAttribute('data-tiles'), 'off');
    // Machines, or clusters of them (issue 29): each a Leaflet interactive element.
    await map.locator('.leaflet-interactive').first().waitFor();
    assert.equal(await map.locator('.leaflet-tile').count(), 0, 'no tile layer without a tile URL');
    assert.equal(await page.locator('img.leaflet-marker-icon').count(), 0, 'circle markers, never the default marker images');
  });

  test('two machines, the administrator as refiller: a plan with its stops, saved as a planned route', async () => {
    // The two machines nearest each other (the demo fleet spreads over cities a van cannot
    // join in one shift).
    const map = await call('GET', '/api/route-planning/map/');
    assert.equal(map.status, 200);
    const placed = map.body.data.machines.filter((m) => typeof m.latitude === 'number');
    let best = null;
    for (const a of placed) {
      for (const b of placed) {
        if (a.id >= b.id) continue;
        const d = (a.latitude - b.latitude) ** 2 + (a.longitude - b.longitude) ** 2;
        if (!best || d < best.d) best = { d, ids: [a.id, b.id] };
      }
    }
    assert.ok(best, 'two machines with coordinates');
    for (const id of best.ids) {
      const row = page.getByTestId('ranked-grid').locator(`.MuiDataGrid-row[data-id="${id}"]`);
      made.machines.push(id);
      await row.getByRole('checkbox').check();
    }
    assert.equal(made.machines.filter(Boolean).length, 2, JSON.stringify(made.machines));
    await page.getByTestId('planning-refillers').click();
    await page.getByRole('option', { name: made.admin.name, exact: true }).click();
    await page.keyboard.press('Escape');

    const generated = page.waitForResponse(isCall('POST', '/api/route-planning/generate-picklist/'));
    generated.catch(() => undefined);
    await page.getByTestId('planning-generate').click();
    const reply = await generated;
    assert.equal(reply.status(), 200, await reply.text());
    assert.deepEqual(JSON.parse(reply.request().postData() ?? '{}').employee_ids, [made.admin.id]);
    made.plan = (await reply.json()).data;
    const route = made.plan.routes.find((item) => item.employee_id === made.admin.id);
    assert.ok(route, JSON.stringify(made.plan));
    const planned = route.stops.map((stop) => stop.machine_id);
    assert.deepEqual([...planned].sort(), [...made.machines].sort(), `both machines are routed: ${JSON.stringify(made.plan.unassigned)}`);

    const shown = await page.getByTestId(`plan-route-${made.admin.id}`).getByTestId('plan-stop').evaluateAll((stops) => stops.map((stop) => stop.getAttribute('data-machine')));
    assert.deepEqual(shown, planned, 'the stops in the plan’s order');
    await page.getByTestId('planning-map').locator('path.leaflet-interactive[stroke-width="4"]').first().waitFor({ state: 'attached' });
    // For screen readers the line is an image named as its refiller, each stop a button named as its tooltip.
    assert.equal(await page.getByTestId('planning-map').getByRole('img', { name: made.admin.name, exact: true }).count(), 1);
    const stops = await page.getByTestId('planning-map').getByRole('button', { name: /^\d+\. / }).evaluateAll((paths) => paths.map((path) => path.getAttribute('aria-label')));
    assert.equal(stops.length, 2, JSON.stringify(stops));

    const saved = page.waitForResponse(isCall('POST', '/api/planned-routes/'));
    saved.catch(() => undefined);
    await page.getByTestId('plan-save').click();
    const savedReply = await saved;
    assert.equal(savedReply.status(), 201, await savedReply.text());
    assert.deepEqual(JSON.parse(savedReply.request().postData() ?? '{}').routes, [{ employee_id: made.admin.id, machine_ids: planned }]);
    const body = (await savedReply.json()).data;
    made.route = (Array.isArray(body) ? body : (body.routes ?? [body])).find((item) => item.employee_id === made.admin.id);
    assert.ok(made.route?.id, JSON.stringify(body));
    // Save opens the saved route.
    await page.waitForURL((url) => url.pathname === `/planning/planned-routes/${made.route.id}`);
  });

  test('the route: its stops, a visit booked with the form, and the visit report', async () => {
    assert.ok(made.route, 'the route of the test before');
    await page.waitForURL((url) => url.pathname === `/planning/planned-routes/${made.route.id}`);
    const stops = page.getByTestId('route-stops').getByTestId('route-stop');
    await stops.first().waitFor();
    const order = await stops.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-machine')));
    assert.deepEqual(order, made.plan.routes.find((item) => item.employee_id === made.admin.id).stops.map((stop) => stop.machine_id));
    const first = order[0];

    await page.getByTestId(`stop-book-${first}`).click();
    const form = page.getByTestId('visit-form');
    await form.waitFor();
    const requestId = await form.getAttribute('data-request-id');
    assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
    await page.getByTestId('visit-cash-bag').fill(BAG);
    const booked = page.waitForResponse(isCall('POST', '/api/machines/fill-from-route/'));
    booked.catch(() => undefined);
    await page.getByTestId('visit-submit').click();
    const bookedReply = await booked;
    assert.equal(bookedReply.status(), 200, await bookedReply.text());
    const sent = JSON.parse(bookedReply.request().postData() ?? '{}');
    assert.equal(sent.request_id, requestId);
    assert.equal(sent.machine_id, first);
    assert.ok(sent.lines.length > 0, 'the stop’s picklist lines');
    await form.waitFor({ state: 'detached' });
    await page.locator(`[data-testid="route-stop"][data-machine="${first}"][data-visited="yes"]`).waitFor();

    await page.getByTestId('route-tab-visits').click();
    const report = page.getByTestId('route-visit-report');
    await report.getByText(BAG, { exact: true }).waitFor();
    await report.getByText(made.admin.name, { exact: true }).first().waitFor();
    const stopsReply = await call('GET', `/api/planned-routes/${made.route.id}/machines/`);
    const visited = stopsReply.body.data.find((stop) => stop.machine_id === first);
    assert.equal(visited.visit?.cash_bag, BAG);

    // The stock is what the visit left, and the refill log has the route's lines.
    const selections = await call('GET', `/api/machines/${first}/products/`);
    for (const line of sent.lines) {
      const selection = selections.body.data.find((item) => item.selection === line.selection);
      assert.equal(selection.current, line.found + line.filled - line.removed, JSON.stringify(line));
    }
    const refills = await call('GET', `/api/refills/?machine=${first}&page_size=100`);
    const fromRoute = refills.body.data.filter((entry) => entry.source === 'route');
    assert.equal(fromRoute.length, sent.lines.filter((line) => line.filled > 0 || line.removed > 0).length);

    // The stock report and the forecast accuracy on the route's page.
    await page.getByTestId('route-tab-stock').click();
    await page.getByTestId('route-stock-products').waitFor();
    await page.getByTestId('route-tab-accuracy').click();
    await page.getByTestId('route-accuracy').waitFor();
    const accuracy = await call('GET', `/api/planned-routes/${made.route.id}/accuracy/`);
    assert.ok(accuracy.body.data.lines.length > 0, 'accuracy lines after a visit');
  });

  test('nothing fetched off the server, no console errors', () => {
    assert.deepEqual(offsite, []);
    assert.deepEqual(consoleLog.errors, []);
  });
});
