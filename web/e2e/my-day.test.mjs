// The refiller's phone app (issue 30) against the real `vendfleet serve`, in headless Chromium at
// 390 × 844 with the server's and the browser's clock on 26 November 2026: a refiller opens
// today's route online, goes offline, books three visits, reloads the page offline (the queue is
// still there), comes back online (each visit booked once, the stock right); a send cut on its way
// back is resent and booked once; a booking the server refuses shows its reason; "could not
// service" is booked with its reason; the van's loading list is ticked off and the picklist shows
// it. The manifest and the service worker load without errors, the app shell opens offline, and
// axe finds nothing on the phone screens. With MY_DAY_SHOTS=1 it saves the phone screens in en and
// fr to docs/screenshots/issue-30/.
//
// Selectors it relies on (test ids): my-route[data-route], my-stop[data-machine] > stop-open,
// stop-outcome, sync-status[data-status]; my-visit-form, visit-submit, visit-cash-bag;
// sync-summary[data-pending][data-refused]; queue-item[data-status][data-machine], queue-refusal,
// queue-discard; pending-booking[data-status]; offline-copy; my-day-offline; not-serviced-reason,
// not-serviced-submit; loading-product[data-product][data-loaded]; my-route-export.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, signIn, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const CLOCK_START = '2026-11-26T08:00:00Z';
const TODAY = '2026-11-26';
const PHONE = { width: 390, height: 844 };
const REFILLER = { name: 'Rita Refiller', email: 'rita.refiller@vendfleet.test', password: 'Rita-pass-1234' };
const FILL = '/api/machines/fill-from-route/';
const axeSource = createRequire(import.meta.url)('axe-core').source;
const SHOTS = process.env.MY_DAY_SHOTS ? new URL('../../docs/screenshots/issue-30/', import.meta.url) : null;

let server;
let browser;
/** The administrator's desktop page: sets the fleet up and checks the server's books. */
let admin;
/** The refiller's phone. */
let context;
let page;
const consoleLog = { errors: [], expected: [] };
const made = { refiller: null, route: null, spare: null, stops: [], picklists: new Map() };
/** The request ids of every booking the phone posted (a resend posts one again). */
const posted = [];

const admincall = (method, path, body) => apiCall(admin, method, path, body);

async function created(method, path, body) {
  const reply = await admincall(method, path, body);
  assert.ok(reply.status === 200 || reply.status === 201, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

const stopCard = (machineId) => page.locator(`[data-testid="my-stop"][data-machine="${machineId}"]`);

/** Opens the route's page inside the app (a link, not a load). */
async function openRoute() {
  if (!page.url().endsWith(`/my-day/routes/${made.route.id}`)) {
    await page.getByRole('link', { name: /routes|tournées/i }).first().click();
    await page.locator(`[data-testid="my-route"][data-route="${made.route.id}"] a`).click();
  }
  await page.getByTestId('my-stops').waitFor();
}

/** At a stop of the route: the visit form as the picklist fills it, and a cash bag. */
async function bookVisit(machineId, bag) {
  await openRoute();
  await stopCard(machineId).getByTestId('stop-open').click();
  await page.getByTestId('my-visit-form').waitFor();
  await page.getByTestId('visit-cash-bag').fill(bag);
  await page.getByTestId('visit-submit').click();
  await page.getByTestId('my-stops').waitFor();
  await stopCard(machineId).getByTestId('sync-status').waitFor();
}

/** Waits until the outbox has nothing left to send. */
async function allSent() {
  await page.waitForFunction(() => document.querySelector('[data-testid="sync-summary"]')?.getAttribute('data-pending') === '0', null, { timeout: 30_000 });
}

/** The stop's refill-log lines from the route, and its selections' stock. */
async function books(machineId) {
  const refills = await admincall('GET', `/api/refills/?machine=${machineId}&page_size=100`);
  const selections = await admincall('GET', `/api/machines/${machineId}/products/`);
  return { fromRoute: refills.body.data.filter((entry) => entry.source === 'route'), selections: selections.body.data };
}

/** Each picklist line of the stop booked once: a refill line per filled selection, the stock at the form's figures. */
async function assertBookedOnce(machineId) {
  const lines = made.picklists.get(machineId) ?? [];
  const { fromRoute, selections } = await books(machineId);
  // The form starts at the predicted stock and fills to max: each selection ends at its max.
  const filled = lines.filter((line) => line.max - Math.min(line.max, Math.max(0, Math.floor(line.predicted_at_visit))) > 0);
  assert.equal(fromRoute.length, filled.length, `${machineId}: ${JSON.stringify(fromRoute)}`);
  for (const line of lines) {
    const selection = selections.find((item) => item.selection === line.selection);
    assert.equal(selection.current, line.max, `${machineId} ${line.selection}`);
  }
}

/** axe's serious and critical WCAG 2.1 A/AA violations of the page as it is now. */
async function axe() {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ rule: violation.id, impact: violation.impact, nodes: violation.nodes.map((node) => node.html.slice(0, 200)) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

async function shot(name, language) {
  if (!SHOTS) return;
  // No toast over the screen.
  await page.locator('#notistack-snackbar').first().waitFor({ state: 'detached', timeout: 10_000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: new URL(`${language}-${name}.png`, SHOTS).pathname });
}

describe('the refiller’s phone app, offline first', { concurrency: false }, () => {
  before(async () => {
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    server = await startServer({ env: { VENDFLEET_CLOCK_START: CLOCK_START, VENDFLEET_TIME_ZONE: 'Europe/Paris' }, seed: { machines: 7, days: 20 } });
    browser = await launchBrowser();
    admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })).newPage();
    admin.setDefaultTimeout(15_000);
    await signIn(admin, server.baseUrl, ADMIN, '/dashboard');

    // A refiller's role: their routes and the visits' stock.
    const role = await created('POST', '/api/users/roles/', { name: 'Phone refiller', modules: ['planning.planned_routes.list', 'settings.machines.edit_quantity_expiry'] });
    made.refiller = await created('POST', '/api/users/', { ...REFILLER, language: 'en', active: true, role_id: role.id, access_all_modules: false, access_all_machines: true });

    // Today's route of six stops.
    const ranked = await admincall('GET', '/api/route-planning/?page_size=100');
    assert.equal(ranked.status, 200, JSON.stringify(ranked.body));
    const placed = ranked.body.data.filter((m) => typeof m.latitude === 'number').map((m) => m.id);
    assert.equal(placed.length, 7, JSON.stringify(ranked.body.data));
    const machines = [...placed.slice(0, 5), placed[6]];
    const saved = await created('POST', '/api/planned-routes/', { name: 'Thursday north', visit_date: TODAY, routes: [{ employee_id: made.refiller.id, machine_ids: machines }] });
    made.route = (Array.isArray(saved) ? saved : (saved.routes ?? [saved]))[0];
    assert.ok(made.route?.id, JSON.stringify(saved));
    // Tomorrow's route of one stop, left unvisited (the screenshots' visit form).
    const spare = await created('POST', '/api/planned-routes/', { name: 'Friday south', visit_date: '2026-11-27', routes: [{ employee_id: made.refiller.id, machine_ids: [placed[5]] }] });
    made.spare = { route: (Array.isArray(spare) ? spare : (spare.routes ?? [spare]))[0].id, machine: placed[5] };
    const route = await created('GET', `/api/planned-routes/${made.route.id}/`);
    made.stops = [...route.machines].sort((a, b) => a.order - b.order).map((stop) => stop.machine_id);
    const picklists = await created('GET', `/api/planned-routes/${made.route.id}/machines/products/`);
    for (const stop of picklists) made.picklists.set(stop.machine_id, stop.lines);

    context = await browser.newContext({ viewport: PHONE, locale: 'en-US', timezoneId: 'Europe/Paris', isMobile: true, hasTouch: true });
    await context.clock.install({ time: new Date(CLOCK_START) });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === FILL) posted.push(JSON.parse(request.postData() ?? '{}').request_id);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('today’s route opened online: the stops in order, each with its map link', async () => {
    await signIn(page, server.baseUrl, REFILLER, '/my-day');
    await page.locator(`[data-testid="my-route"][data-route="${made.route.id}"]`).waitFor();
    // The phone keeps the app shell: the service worker is active and controls the page.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await openRoute();
    const order = await page.getByTestId('my-stop').evaluateAll((stops) => stops.map((stop) => stop.getAttribute('data-machine')));
    assert.deepEqual(order, made.stops);
    const maps = await page.getByTestId('stop-maps').first().getAttribute('href');
    assert.match(maps ?? '', /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=-?\d/);
    assert.equal(await page.getByTestId('offline-copy').count(), 0);
    // The refiller downloads their own route's table.
    const download = page.waitForEvent('download');
    download.catch(() => undefined);
    await page.getByTestId('my-route-export').click();
    await page.getByRole('menuitem', { name: /CSV/ }).click();
    assert.match((await download).suggestedFilename(), /\.csv$/);
  });

  test('offline: three visits booked on the phone, still queued after a reload', async () => {
    await context.setOffline(true);
    await page.getByTestId('my-day-offline').waitFor();
    for (const [index, machineId] of made.stops.slice(0, 3).entries()) await bookVisit(machineId, `BAG-${index + 1}`);
    const statuses = await page.getByTestId('sync-status').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-status')));
    assert.deepEqual(statuses, ['queued', 'queued', 'queued']);

    await page.reload();
    await page.getByTestId('my-stops').waitFor();
    await page.getByTestId('offline-copy').waitFor();
    assert.deepEqual(await page.getByTestId('sync-status').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-status'))), ['queued', 'queued', 'queued']);
    await page.getByRole('link', { name: /queue/i }).first().click();
    const items = page.getByTestId('queue-item');
    await items.first().waitFor();
    assert.deepEqual(await items.evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-machine'), row.getAttribute('data-status')])), made.stops.slice(0, 3).map((id) => [id, 'queued']));
    // Nothing reached the server.
    for (const machineId of made.stops.slice(0, 3)) assert.equal((await books(machineId)).fromRoute.length, 0);
  });

  test('back online: all three sent in order, each booked once, the stock right', async () => {
    await context.setOffline(false);
    await allSent();
    const items = page.getByTestId('queue-item');
    assert.deepEqual(await items.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-status'))), ['sent', 'sent', 'sent']);
    const ids = await items.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-request-id')));
    assert.deepEqual([...new Set(posted)].slice(0, 3), ids, 'sent in the order booked, with the ids made when booking');
    for (const machineId of made.stops.slice(0, 3)) await assertBookedOnce(machineId);
    const stops = await admincall('GET', `/api/planned-routes/${made.route.id}/machines/`);
    const bags = made.stops.slice(0, 3).map((id) => stops.body.data.find((stop) => stop.machine_id === id)?.visit?.cash_bag);
    assert.deepEqual(bags, ['BAG-1', 'BAG-2', 'BAG-3']);
  });

  test('the network cut while a booking is on its way back: resent with its id, booked once', async () => {
    const machineId = made.stops[3];
    let cuts = 0;
    await page.route(`**${FILL}`, async (route) => {
      if (cuts === 0) {
        cuts += 1;
        // The server books it; the answer never reaches the phone.
        await route.fetch();
        await route.abort('internetdisconnected');
      } else await route.continue();
    });
    const before = posted.length;
    await bookVisit(machineId, 'BAG-4');
    await allSent();
    await page.unroute(`**${FILL}`);
    const sent = posted.slice(before);
    assert.equal(sent.length, 2, JSON.stringify(sent));
    assert.equal(sent[0], sent[1], 'the same request_id again');
    await assertBookedOnce(machineId);
    await page.getByRole('link', { name: /queue/i }).first().click();
    const item = page.locator(`[data-testid="queue-item"][data-machine="${machineId}"]`);
    assert.equal(await item.getAttribute('data-status'), 'sent');
    await item.getByText('The server already had it').waitFor();
  });

  test('a booking the server refuses is kept with its reason, to fix or discard', async () => {
    const machineId = made.stops[4];
    await context.setOffline(true);
    await bookVisit(machineId, 'BAG-5');
    // Meanwhile the office books the same stop.
    const office = await admincall('POST', FILL, { route_id: made.route.id, machine_id: machineId, request_id: crypto.randomUUID(), lines: [], cash_bag: 'OFFICE', collected_minor: 100 });
    assert.equal(office.status, 200, JSON.stringify(office.body));
    consoleLog.expected.push({ url: FILL, status: 409 });
    await context.setOffline(false);
    await page.waitForFunction(() => document.querySelector('[data-testid="sync-summary"]')?.getAttribute('data-refused') === '1', null, { timeout: 30_000 });
    await stopCard(machineId).locator('[data-testid="sync-status"][data-status="refused"]').waitFor();
    await stopCard(machineId).getByTestId('stop-open').click();
    await page.locator('[data-testid="pending-booking"][data-status="refused"]').waitFor();
    await page.getByRole('link', { name: /queue/i }).first().click();
    const item = page.locator(`[data-testid="queue-item"][data-machine="${machineId}"]`);
    assert.equal(await item.getAttribute('data-status'), 'refused');
    const reason = await item.getByTestId('queue-refusal').innerText();
    assert.match(reason, /The server says: \S/);
    await shot('queue', 'en');
    await item.getByTestId('queue-discard').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await item.waitFor({ state: 'detached' });
    // The office's booking stands.
    const stops = await admincall('GET', `/api/planned-routes/${made.route.id}/machines/`);
    assert.ok(stops.body.data.find((stop) => stop.machine_id === machineId)?.visit);
  });

  test('“could not service” with its reason and a note: booked once, the stop marked', async () => {
    const machineId = made.stops[5];
    await openRoute();
    await stopCard(machineId).getByTestId('stop-open').click();
    await page.getByTestId('not-serviced-reason').click();
    await page.getByRole('option', { name: 'Site closed' }).click();
    await page.getByTestId('my-not-serviced').getByLabel('Note').fill('Gate locked, nobody on site');
    await page.getByTestId('not-serviced-submit').click();
    await page.getByTestId('my-stops').waitFor();
    await allSent();
    await stopCard(machineId).locator('[data-testid="stop-outcome"][data-outcome="not_serviced"]').waitFor();
    const route = await admincall('GET', `/api/planned-routes/${made.route.id}/`);
    const stop = route.body.data.machines.find((item) => item.machine_id === machineId);
    assert.equal(stop.outcome, 'not_serviced');
    assert.equal(stop.not_serviced, 'site_closed');
    assert.equal((await books(machineId)).fromRoute.length, 0, 'nothing refilled');
  });

  test('the van’s loading list: per product cases and loose units, ticked off, shown on the picklist', async () => {
    const reply = await admincall('GET', `/api/planned-routes/loading-list/?route_id=${made.spare.route}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const list = reply.body.data;
    assert.ok(list.products.length > 0, JSON.stringify(list));
    await page.goto(`${server.baseUrl}/my-day/loading?route=${made.spare.route}`);
    const rows = page.getByTestId('loading-product');
    await rows.first().waitFor();
    assert.deepEqual(await rows.evaluateAll((items) => items.map((row) => row.getAttribute('data-product'))), list.products.map((product) => product.product_id));
    const first = list.products[0];
    const cells = await rows.first().locator('td').allInnerTexts();
    assert.equal(cells[1], String(first.units));
    assert.equal(cells[2], first.case_size ? `${first.cases} × ${first.case_size} + ${first.loose}` : String(first.loose));
    assert.equal(await page.getByTestId('loading-stop').count(), list.stops.length);
    // On paper: the lists only, without the bar, the navigation and the buttons.
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('header').isVisible(), false);
    assert.equal(await page.locator('nav').isVisible(), false);
    assert.equal(await page.getByRole('button', { name: 'Print' }).isVisible(), false);
    assert.ok(await rows.first().isVisible());
    await page.emulateMedia({ media: 'screen' });

    const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && new URL(response.url()).pathname === `/api/planned-routes/${made.spare.route}/loading/`);
    await rows.first().getByRole('checkbox').click();
    assert.equal((await saved).status(), 200);
    await page.locator(`[data-testid="loading-product"][data-product="${first.product_id}"][data-loaded="${first.units}"]`).waitFor();
    const after = await admincall('GET', `/api/planned-routes/loading-list/?route_id=${made.spare.route}`);
    assert.equal(after.body.data.products.find((product) => product.product_id === first.product_id).loaded, first.units);

    // The stop's picklist says what the van was loaded with.
    await page.goto(`${server.baseUrl}/my-day/routes/${made.spare.route}/stops/${made.spare.machine}`);
    await page.getByTestId('my-picklist').getByText(`Van, whole route: ${first.units} of ${first.units} loaded`).first().waitFor();
  });

  test('installable: the manifest and its icons load, the service worker is active, the shell opens offline', async () => {
    const manifest = await page.evaluate(async () => {
      const link = document.querySelector('link[rel="manifest"]');
      const response = await fetch(link.href);
      const body = await response.json();
      const icons = await Promise.all(body.icons.map(async (icon) => (await fetch(icon.src)).status));
      return { status: response.status, body, icons };
    });
    assert.equal(manifest.status, 200);
    assert.equal(manifest.body.start_url, '/my-day');
    assert.equal(manifest.body.display, 'standalone');
    assert.deepEqual(manifest.body.icons.map((icon) => icon.sizes), ['192x192', '512x512', '512x512']);
    assert.deepEqual(manifest.icons, [200, 200, 200]);
    const worker = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state);
    assert.equal(worker, 'activated');

    await context.setOffline(true);
    const offline = await context.newPage();
    watchConsole(offline, consoleLog);
    await offline.goto(`${server.baseUrl}/my-day`);
    await offline.locator(`[data-testid="my-route"][data-route="${made.route.id}"]`).waitFor();
    await offline.getByTestId('offline-copy').waitFor();
    await offline.close();
    await context.setOffline(false);
  });

  test('accessible: the phone screens pass axe (WCAG 2.1 A/AA)', async () => {
    const screens = [
      ['/my-day', 'my-route'],
      [`/my-day/routes/${made.route.id}`, 'my-stop'],
      [`/my-day/routes/${made.spare.route}/stops/${made.spare.machine}`, 'my-visit-form'],
      ['/my-day/queue', 'queue-item'],
      [`/my-day/loading?route=${made.spare.route}`, 'loading-product'],
    ];
    for (const [path, testId] of screens) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByTestId(testId).first().waitFor();
      assert.deepEqual(await axe(), [], path);
    }
  });

  test('no console errors (but the refused booking’s 409 and the requests made offline)', () => {
    const unexpected = consoleLog.errors.filter((line) => !/net::ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|Failed to fetch/.test(line));
    assert.deepEqual(unexpected, []);
  });

  test('screenshots of the phone screens in en and fr (MY_DAY_SHOTS=1)', { skip: !SHOTS }, async () => {
    for (const language of ['en', 'fr']) {
      const switched = await apiCall(page, 'POST', '/api/settings/languges/switch/', { language });
      assert.equal(switched.status, 200, JSON.stringify(switched.body));
      await page.goto(`${server.baseUrl}/my-day`);
      await page.locator(`[data-testid="my-route"][data-route="${made.route.id}"]`).waitFor();
      await shot('my-day', language);
      await openRoute();
      await shot('route', language);
      await stopCard(made.stops[0]).getByTestId('stop-open').click();
      await page.getByTestId('my-picklist').waitFor();
      await shot('stop', language);
      await page.goto(`${server.baseUrl}/my-day/routes/${made.spare.route}/stops/${made.spare.machine}`);
      await page.getByTestId('my-visit-form').waitFor();
      await page.getByTestId('my-visit').evaluate((section) => window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY - 64));
      await shot('visit-form', language);
      await page.goto(`${server.baseUrl}/my-day/queue`);
      await page.getByTestId('queue-item').first().waitFor();
      if (language === 'fr') await shot('queue', language);
      await page.goto(`${server.baseUrl}/my-day/loading?route=${made.route.id}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await shot('loading', language);
    }
  });
});
