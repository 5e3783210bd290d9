// End-to-end flows of issue 4 (clients, locations, models) against the real `vendfleet serve`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

const tag = Date.now().toString(36);
const CLIENT = `Acme Vending ${tag}`;
const LOCATION = `Central Station ${tag}`;
const OTHER_LOCATION = `Harbour ${tag}`;
const MODEL = `Snackmaster ${tag}`;
const ROSA = { name: `Rosa Refiller ${tag}`, email: `rosa.${tag}@vendfleet.test` };
const MARCO = { name: `Marco Refiller ${tag}`, email: `marco.${tag}@vendfleet.test` };

let server;
let browser;
let context;
let page;
const consoleLog = { errors: [], expected: [] };
const visited = new Set();

async function go(path) {
  await page.goto(`${server.baseUrl}${path}`);
}

function pathOf(url) {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function waitForPath(expected) {
  await page.waitForURL((url) => pathOf(url.toString()) === expected, { timeout: 20_000 });
}

/** A call with the signed-in user's token, straight from the page. */
async function call(method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: {
          Authorization: `Bearer ${localStorage.getItem('accessToken')}`,
          'Content-Type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

function gridRow(grid, text) {
  return page.getByTestId(grid).getByRole('row').filter({ hasText: text });
}

async function pick(testId, text) {
  await page.getByTestId(testId).click();
  await page.getByTestId(testId).fill(text);
  await page.getByRole('option', { name: text, exact: true }).click();
}

describe('vendfleet fleet settings', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      timezoneId: 'Europe/Rome',
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.add(new URL(frame.url()).pathname);
    });
    await go('/auth/jwt/login?returnTo=%2Fsettings%2Fclient-management');
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await waitForPath('/settings/client-management');
    // Two employees to choose as refillers.
    for (const person of [ROSA, MARCO]) {
      const created = await call('POST', '/api/users/', {
        ...person,
        password: 'Refiller-pass-1234',
        language: 'en',
        active: true,
        access_all_modules: false,
        access_all_machines: true,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a client is created with its commission as a percentage', async () => {
    await go('/settings/client-management');
    await page.getByRole('heading', { name: 'Client management' }).waitFor();
    await page.getByTestId('new-client').click();
    const dialog = page.getByTestId('client-dialog');
    await dialog.locator('input[name=name]').fill(CLIENT);
    await dialog.locator('input[name=contact_name]').fill('Anna Bianchi');
    await dialog.locator('input[name=email]').fill(`ops.${tag}@acme.test`);
    await dialog.locator('input[name=phone]').fill('+39 055 123456');
    await dialog.locator('input[name=commission]').fill('2.555');
    await page.getByTestId('client-submit').click();
    await dialog.getByText('Enter a percentage with at most 2 decimals, e.g. 2.5').waitFor();
    await dialog.locator('input[name=commission]').fill('2,5');
    await page.getByTestId('client-submit').click();
    await page.getByText('Client created successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = gridRow('clients-grid', CLIENT);
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /2\.5%/);
    const list = await call('GET', `/api/clients/?search=${encodeURIComponent(CLIENT)}`);
    assert.equal(list.body.data[0].commission_bps, 250);

    // Editing shows the stored percentage again.
    await page.getByRole('button', { name: `Edit: ${CLIENT}` }).click();
    assert.equal(await dialog.locator('input[name=commission]').inputValue(), '2.5');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('a location is created for the client with a refiller and a time zone', async () => {
    const other = await call('POST', '/api/locations/', { name: OTHER_LOCATION, time_zone: 'UTC' });
    assert.equal(other.status, 201, JSON.stringify(other.body));

    await go('/settings/location-management');
    await page.getByTestId('new-location').click();
    await waitForPath('/settings/create-location');
    // A new location starts in the browser's time zone.
    assert.equal(await page.getByTestId('location-time-zone').inputValue(), 'Europe/Rome');
    await page.locator('input[name=name]').fill(LOCATION);
    await page.locator('input[name=address]').fill('Piazza della Stazione 1, Firenze');
    await page.locator('input[name=type]').fill('Station');
    await page.locator('input[name=region]').fill('Tuscany');
    await pick('location-client', CLIENT);
    await pick('location-refiller', ROSA.name);
    await page.locator('input[name=latitude]').fill('43,7764');
    await page.getByTestId('location-submit').click();
    await page.getByText('Give both latitude and longitude, or neither').waitFor();
    await page.locator('input[name=longitude]').fill('11.2480');
    await pick('location-time-zone', 'Europe/Paris');
    await page.getByTestId('location-submit').click();
    await waitForPath('/settings/location-management');
    await page.getByText('Location created successfully').waitFor();

    const found = await call('GET', `/api/locations/?search=${encodeURIComponent(LOCATION)}`);
    const stored = found.body.data[0];
    assert.equal(stored.time_zone, 'Europe/Paris');
    assert.equal(stored.client_name, CLIENT);
    assert.equal(stored.refiller_name, ROSA.name);
    assert.equal(stored.type, 'Station');
    assert.equal(stored.latitude, 43.7764);
  });

  test('the list filtered by the client shows the location; its refiller is changed', async () => {
    await go('/settings/location-management');
    await gridRow('locations-grid', OTHER_LOCATION).waitFor();
    await page.getByTestId('locations-client-filter').click();
    await page.getByRole('option', { name: CLIENT }).click();
    await gridRow('locations-grid', OTHER_LOCATION).waitFor({ state: 'detached' });
    const row = gridRow('locations-grid', LOCATION);
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    assert.match(text, new RegExp(CLIENT));
    assert.match(text, new RegExp(ROSA.name));
    assert.match(text, /Europe\/Paris/);

    // Export with the same filter.
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(csv, new RegExp(LOCATION));
    assert.doesNotMatch(csv, new RegExp(OTHER_LOCATION));

    await row.getByRole('checkbox').check();
    await page.getByTestId('change-refiller').click();
    await page.getByTestId('change-refiller-dialog').getByText('Choose the new refiller of 1 location.').waitFor();
    await pick('change-refiller-picker', MARCO.name);
    await page.getByTestId('change-refiller-submit').click();
    await page.getByText('Refiller changed successfully').waitFor();
    await row.filter({ hasText: MARCO.name }).waitFor();
    assert.doesNotMatch((await row.textContent()) ?? '', new RegExp(ROSA.name));
  });

  test('the location form loads the stored values', async () => {
    await go('/settings/location-management');
    await page.getByRole('button', { name: `Edit: ${LOCATION}` }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/settings/create-location/'));
    await page.locator('input[name=name]').waitFor();
    assert.equal(await page.locator('input[name=name]').inputValue(), LOCATION);
    assert.equal(await page.getByTestId('location-client').inputValue(), CLIENT);
    assert.equal(await page.getByTestId('location-refiller').inputValue(), MARCO.name);
    assert.equal(await page.getByTestId('location-time-zone').inputValue(), 'Europe/Paris');
    await page.locator('input[name=region]').fill('Toscana');
    await page.getByTestId('location-submit').click();
    await waitForPath('/settings/location-management');
    await page.getByText('Location updated successfully').waitFor();
    await gridRow('locations-grid', LOCATION).filter({ hasText: 'Toscana' }).waitFor();
  });

  test('a model is created and edited', async () => {
    await go('/settings/model-management');
    await page.getByTestId('new-model').click();
    await waitForPath('/settings/create-model');
    await page.getByTestId('model-submit').click();
    assert.equal(await page.getByText('This field is required').count(), 3);
    await page.locator('input[name=name]').fill(MODEL);
    await page.locator('input[name=type]').fill('Snack');
    await page.locator('input[name=manufacturer]').fill('Necta');
    await page.getByTestId('model-submit').click();
    await waitForPath('/settings/model-management');
    await page.getByText('Model created successfully').waitFor();
    await gridRow('models-grid', MODEL).filter({ hasText: 'Necta' }).waitFor();

    await page.getByRole('button', { name: `Edit: ${MODEL}` }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/settings/create-model/'));
    await page.locator('input[name=name]').waitFor();
    assert.equal(await page.locator('input[name=type]').inputValue(), 'Snack');
    await page.locator('input[name=manufacturer]').fill('Bianchi Vending');
    await page.getByTestId('model-submit').click();
    await waitForPath('/settings/model-management');
    await page.getByText('Model updated successfully').waitFor();
    const row = gridRow('models-grid', MODEL);
    await row.filter({ hasText: 'Bianchi Vending' }).waitFor();

    // The manufacturer filter offers the values in use.
    await page.getByTestId('models-manufacturer-filter').click();
    await page.getByRole('option', { name: 'Bianchi Vending' }).click();
    await row.waitFor();
  });

  test('a client hosting a location cannot be deleted; the message names the location', async () => {
    await go('/settings/client-management');
    consoleLog.expected.push({ url: '/api/clients/', status: 409 });
    await page.getByRole('button', { name: `Delete: ${CLIENT}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const toast = page.getByText(/^Deletion failed: /);
    await toast.waitFor();
    assert.match((await toast.textContent()) ?? '', new RegExp(LOCATION));
    consoleLog.expected.pop();
    await gridRow('clients-grid', CLIENT).waitFor();
  });

  test('the user form offers the clients and locations', async () => {
    await go('/settings/create-user');
    await page.locator('input[name=name]').waitFor();
    await page.getByText('Access to all machines').click();
    await page.getByTestId('scope-clients').click();
    await page.getByRole('option', { name: CLIENT }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('scope-locations').click();
    await page.getByRole('option', { name: LOCATION }).waitFor();
    await page.keyboard.press('Escape');
    await go('/dashboard');
    await page.getByTestId('dashboard-welcome').waitFor();
  });

  test('no console errors on any visited page', () => {
    assert.ok(visited.size >= 6, `visited only ${[...visited].join(', ')}`);
    assert.deepEqual(consoleLog.errors, []);
  });
});
