// The maps' ground (issue 29) against the real `vendfleet serve` with a seeded demo fleet, every
// request to a host other than the server's own aborted: the route-planning map draws Natural
// Earth's land and borders and GeoNames' place names from the server's own files, clusters the
// fleet with the colour of the most urgent machine, and after a plan fits its route (every stop
// inside the map's box); the location form's map puts a clicked place in its fields.
//
// Selectors it relies on: planning-map (`.leaflet-container[data-ground]`, the `ground` pane's
// canvas, `.vf-place-name`, `.vf-cluster`, the `machines-<rank>` panes, stop buttons named "N. …"),
// ranked-grid rows, planning-refillers, planning-generate, plan-route-<employee id>, location-map,
// location-map-centre, the latitude and longitude inputs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { apiCall, signIn } from './signed-in.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };
/** Requests to another host, aborted. */
const blocked = [];
/** The ground's files the page fetched, with their status. */
const groundFiles = [];

const call = (method, path, body) => apiCall(page, method, path, body);

/** The map's zoom: the scale of Leaflet's zoom proxy doubles each step. */
const mapScale = () =>
  page.evaluate(() => {
    const proxy = document.querySelector('[data-testid="planning-map"] .leaflet-proxy');
    return Number(/scale\(([\d.]+)\)/.exec(proxy?.style.transform ?? '')?.[1] ?? NaN);
  });

describe('the maps’ ground, with nothing fetched off the server', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ seed: { machines: 24, days: 5 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const origin = new URL(server.baseUrl).origin;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      blocked.push(url);
      return route.abort('blockedbyclient');
    });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (/^\/assets\/(countries-|places-)/.test(path)) groundFiles.push({ path, status: response.status() });
    });
    await signIn(page, server.baseUrl, '/planning/route-planning');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the route-planning map draws land, borders and place names from the server’s own files', async () => {
    const map = page.getByTestId('planning-map');
    await map.locator('.leaflet-container[data-ground="drawn"]').waitFor();
    assert.equal(await map.getAttribute('data-tiles'), 'off');
    assert.equal(await map.locator('.leaflet-tile').count(), 0);
    // The land is painted on the ground's canvas: a good part of its pixels are not transparent.
    await page.waitForFunction(() => {
      const canvas = document.querySelector('[data-testid="planning-map"] .leaflet-ground-pane canvas');
      if (!canvas || !canvas.width) return false;
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let at = 3; at < data.length; at += 4 * 16) if (data[at] > 0) painted += 1;
      return painted > data.length / (4 * 16) / 10;
    });
    await map.locator('.vf-place-name').first().waitFor();
    assert.ok((await map.locator('.vf-place-name').count()) >= 3, 'the cities of the view are named');
    assert.ok(
      groundFiles.some((file) => file.path.startsWith('/assets/countries-') && file.status === 200),
      JSON.stringify(groundFiles),
    );
    assert.ok(
      groundFiles.some((file) => /^\/assets\/places-[\w-]+\/world\.json$/.test(file.path) && file.status === 200),
      JSON.stringify(groundFiles),
    );
  });

  test('the most urgent are on top: a cluster shows its most urgent machine, the "now" pane above the others', async () => {
    const map = page.getByTestId('planning-map');
    const reply = await call('GET', '/api/route-planning/map/');
    const machines = reply.body.data.machines.filter((machine) => typeof machine.latitude === 'number');
    const panes = await page.evaluate(() =>
      Object.fromEntries(
        [0, 1, 2, 3].map((rank) => [rank, Number(getComputedStyle(document.querySelector(`[data-testid="planning-map"] .leaflet-machines-${rank}-pane`)).zIndex)]),
      ),
    );
    assert.ok(panes[3] > panes[2] && panes[2] > panes[1] && panes[1] > panes[0], JSON.stringify(panes));
    // The fleet spreads over several cities: at its view the machines of a city make one cluster.
    const clusters = await map.locator('.vf-cluster').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    assert.ok(clusters.length > 0, 'clusters at the fleet’s view');
    const drawn = clusters.reduce((sum, label) => sum + Number(/^(\d+) /.exec(label)[1]), 0) + (await map.getByRole('button', { name: / · / }).count());
    assert.equal(drawn, machines.length, 'each machine in a cluster or on its own');
    // A machine needing a visit now that is not drawn on its own is in a cluster, which then says so, in red.
    const nowAlone = await map.getByRole('button', { name: / · Visit now/ }).count();
    if (machines.filter((machine) => machine.need === 'now').length > nowAlone) {
      assert.ok(clusters.some((label) => label.includes('the most urgent: Visit now')), JSON.stringify(clusters));
    }
    const red = await page.locator('[data-testid="map-legend"] [data-legend="now"] > span').first().evaluate((dot) => getComputedStyle(dot).backgroundColor);
    const fills = await map.locator('.vf-cluster > span').evaluateAll((items) => items.map((item) => [item.parentElement.getAttribute('aria-label'), getComputedStyle(item).backgroundColor]));
    for (const [label, fill] of fills) assert.equal(fill === red, label.includes('Visit now'), `${label}: ${fill}`);
  });

  test('after a plan the map fits the route: every stop inside the map’s box', async () => {
    const me = (await call('GET', '/api/users/me/')).body.data;
    const reply = await call('GET', '/api/route-planning/map/');
    const placed = reply.body.data.machines.filter((machine) => typeof machine.latitude === 'number');
    // Three machines of one city, as far from each other as that city's machines go.
    const city = placed[0];
    const near = placed.filter((machine) => Math.abs(machine.latitude - city.latitude) < 0.5 && Math.abs(machine.longitude - city.longitude) < 0.5).slice(0, 3);
    assert.ok(near.length >= 2, JSON.stringify(placed));
    const fleetScale = await mapScale();

    for (const machine of near) {
      await page.getByTestId('planning-search').fill(machine.name);
      const row = page.getByTestId('ranked-grid').locator(`.MuiDataGrid-row[data-id="${machine.id}"]`);
      await row.getByRole('checkbox').check();
    }
    await page.getByTestId('planning-refillers').click();
    await page.getByRole('option', { name: me.name, exact: true }).click();
    await page.keyboard.press('Escape');
    const generated = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/route-planning/generate-picklist/');
    generated.catch(() => undefined);
    await page.getByTestId('planning-generate').click();
    const plan = (await (await generated).json()).data;
    const route = plan.routes.find((item) => item.employee_id === me.id);
    assert.ok(route?.stops.length >= 2, JSON.stringify(plan));

    const map = page.getByTestId('planning-map');
    await map.locator('path.leaflet-interactive[stroke-width="4"]').first().waitFor({ state: 'attached' });
    const stops = map.getByRole('button', { name: /^\d+\. / });
    await page.waitForFunction(
      (count) => [...document.querySelectorAll('[data-testid="planning-map"] [role="button"]')].filter((item) => /^\d+\. /.test(item.getAttribute('aria-label') ?? '')).length === count,
      route.stops.length,
    );
    await map.scrollIntoViewIfNeeded();
    const box = await map.locator('.leaflet-container').boundingBox();
    // Drawn once the view has moved to the route.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="planning-map"] [role="button"]')]
        .filter((item) => /^\d+\. /.test(item.getAttribute('aria-label') ?? ''))
        .every((item) => item.getBoundingClientRect().width > 0),
    );
    for (const stop of await stops.all()) {
      const mark = await stop.boundingBox();
      const x = mark.x + mark.width / 2;
      const y = mark.y + mark.height / 2;
      assert.ok(x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height, `${await stop.getAttribute('aria-label')} at ${x},${y} outside ${JSON.stringify(box)}`);
    }
    // The route is seen closer than the whole fleet, without zooming in by hand.
    assert.ok((await mapScale()) > fleetScale, `zoomed in on the route: ${fleetScale} → ${await mapScale()}`);
  });

  test('the location form: a click on its map puts the place in the latitude and longitude fields', async () => {
    const locations = await call('GET', '/api/locations/?page_size=1');
    const location = locations.body.data[0];
    await page.goto(`${server.baseUrl}/settings/create-location/${encodeURIComponent(location.id)}`);
    const map = page.getByTestId('location-map');
    await map.locator('.leaflet-container[data-ground="drawn"]').waitFor();
    const latitude = page.locator('input[name=latitude]');
    const longitude = page.locator('input[name=longitude]');
    assert.equal(Number(await latitude.inputValue()), location.latitude);
    const box = await map.locator('.leaflet-container').boundingBox();
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height * 0.25);
    await page.waitForFunction((before) => document.querySelector('input[name=latitude]').value !== before, String(location.latitude));
    const picked = [Number(await latitude.inputValue()), Number(await longitude.inputValue())];
    // North-east of the place it showed, and close to it (the map shows streets apart).
    assert.ok(picked[0] > location.latitude && picked[1] > location.longitude, JSON.stringify({ picked, location }));
    assert.ok(Math.abs(picked[0] - location.latitude) < 0.05 && Math.abs(picked[1] - location.longitude) < 0.05, JSON.stringify({ picked, location }));
    // With the keyboard: the button puts the place at the map's centre.
    await latitude.fill('45.5');
    await longitude.fill('9.2');
    await page.getByTestId('location-map-centre').click();
    // The typed place is brought into view at the map's centre; moved east with the arrow keys, the
    // button puts the place at the new centre.
    await map.locator('.leaflet-container').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(500);
    await page.getByTestId('location-map-centre').click();
    await page.waitForFunction(() => document.querySelector('input[name=longitude]').value !== '9.2');
    const centre = [Number(await latitude.inputValue()), Number(await longitude.inputValue())];
    assert.ok(Math.abs(centre[0] - 45.5) < 0.01 && centre[1] > 9.2 && centre[1] < 9.3, JSON.stringify(centre));
  });

  test('nothing asked of another host, no console errors', () => {
    assert.deepEqual(blocked, []);
    assert.deepEqual(consoleLog.errors, []);
  });
});
