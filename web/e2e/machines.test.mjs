// End-to-end flow of issue 4 (machines, planograms, products) against the real `vendfleet serve`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const tag = Date.now().toString(36);
const CLIENT = `Bianchi Bar ${tag}`;
const LOCATION = `Piazza Duomo ${tag}`;
const MODEL = `Coffeemaster ${tag}`;
const WATER = `Water ${tag}`;
const CHIPS = `Chips ${tag}`;
const BEANS = `Coffee beans ${tag}`;
const ESPRESSO = `Espresso ${tag}`;
const MACHINE = `Lobby snack ${tag}`;

let server;
let browser;
let page;
let admin;
let machineId;
const consoleLog = { errors: [], expected: [] };
const visited = new Set();

async function go(path) {
  await page.goto(`${server.baseUrl}${path}`);
}

/** A call with the signed-in user's token, straight from the page. */
function call(method, path, body) {
  return apiCall(page, method, path, body);
}

function gridRow(grid, text) {
  return page.getByTestId(grid).getByRole('row').filter({ hasText: text });
}

async function pick(testId, text) {
  await page.getByTestId(testId).click();
  await page.getByTestId(testId).fill(text);
  await page.getByRole('option', { name: text, exact: true }).click();
}

async function planogram() {
  const reply = await call('GET', `/api/machines/${machineId}/products/`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return Object.fromEntries(reply.body.data.map((row) => [row.selection, row]));
}

describe('vendfleet machines and products', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, locale: 'en-US', timezoneId: 'Europe/Rome' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.add(new URL(frame.url()).pathname);
    });
    await go('/auth/jwt/login?returnTo=%2Fsettings%2Fmachine-management');
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/settings/machine-management');
    admin = (await call('GET', '/api/users/me/')).body.data;
    assert.ok(admin?.name, 'the admin has a name');

    // The fleet screens have their own flow (fleet.test.mjs): a client, a location and a model.
    const client = await call('POST', '/api/clients/', { name: CLIENT, commission_bps: 500 });
    assert.equal(client.status, 201, JSON.stringify(client.body));
    const location = await call('POST', '/api/locations/', { name: LOCATION, client_id: client.body.data.id, time_zone: 'Europe/Rome' });
    assert.equal(location.status, 201, JSON.stringify(location.body));
    const model = await call('POST', '/api/machines/models/', { name: MODEL, type: 'Snack', manufacturer: 'Necta' });
    assert.equal(model.status, 201, JSON.stringify(model.body));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('two products are created with decimal prices and VAT', async () => {
    await go('/settings/product-management');
    await page.getByTestId('tab-products').waitFor();
    for (const [name, price, vat] of [
      [WATER, '0,80', '10'],
      [CHIPS, '1.555', '22'],
    ]) {
      await page.getByTestId('new-products').click();
      const dialog = page.getByTestId('product-dialog');
      await dialog.locator('input[name=name]').fill(name);
      await dialog.locator('input[name=price]').fill(price);
      await dialog.locator('input[name=vat]').fill(vat);
      await page.getByTestId('product-submit').click();
      if (price === '1.555') {
        await dialog.getByText('At most 2 decimals').waitFor();
        await dialog.locator('input[name=price]').fill('1.20');
        await page.getByTestId('product-submit').click();
      }
      if (name === WATER) {
        // Later creations repeat the message, shown once at a time (no duplicate snackbars).
        await page.getByText('Product created successfully').first().waitFor();
      }
      await dialog.waitFor({ state: 'detached' });
      await gridRow('products-grid', name).waitFor();
    }
    const list = await call('GET', `/api/products/?search=${encodeURIComponent(CHIPS)}`);
    assert.equal(list.body.data[0].price_minor, 120);
    assert.equal(list.body.data[0].vat_bps, 2200);

    // Editing the price records it in the price history.
    await page.getByRole('button', { name: `Edit: ${WATER}` }).click();
    const dialog = page.getByTestId('product-dialog');
    assert.equal(await dialog.locator('input[name=price]').inputValue(), '0.80');
    assert.equal(await dialog.locator('input[name=vat]').inputValue(), '10');
    await dialog.locator('input[name=price]').fill('0.90');
    await page.getByTestId('product-submit').click();
    await page.getByText('Product updated successfully').waitFor();
    await page.getByRole('button', { name: `Edit: ${WATER}` }).click();
    const history = page.getByTestId('price-history');
    await history.getByText(admin.name).first().waitFor();
    assert.equal(await history.getByRole('row').count(), 3, 'header, creation and the change');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The list exports what it shows.
    await page.getByTestId('products-search').fill(WATER);
    await gridRow('products-grid', WATER).waitFor();
    // The search applies after its debounce: wait until the grid shows it.
    await gridRow('products-grid', CHIPS).waitFor({ state: 'detached' });
    await page.getByTestId('products-export').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^products\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(csv, new RegExp(WATER));
    assert.doesNotMatch(csv, new RegExp(CHIPS));
    await page.getByTestId('products-search').fill('');
  });

  test('a component and a composite product with a recipe', async () => {
    await go('/settings/product-management?tab=components');
    await page.getByTestId('new-components').click();
    const componentDialog = page.getByTestId('component-dialog');
    await componentDialog.locator('input[name=name]').fill(BEANS);
    await componentDialog.locator('input[name=unit]').fill('g');
    await page.getByTestId('component-dialog-submit').click();
    await page.getByText('Component created successfully').waitFor();
    await gridRow('components-grid', BEANS).waitFor();

    await page.getByTestId('tab-composites').click();
    await page.getByTestId('new-composites').click();
    const dialog = page.getByTestId('product-dialog');
    await dialog.locator('input[name=name]').fill(ESPRESSO);
    await dialog.locator('input[name=price]').fill('1.10');
    // A composite product is created with its recipe.
    await page.getByTestId('product-submit').click();
    await page.getByTestId('recipe-editor').getByText('This field is required').first().waitFor();
    await pick('recipe-component-0', BEANS);
    await page.getByTestId('recipe-quantity-0').fill('7');
    await page.getByTestId('product-submit').click();
    await page.getByText('Product created successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await gridRow('composites-grid', ESPRESSO).filter({ hasText: `${BEANS} 7 g` }).waitFor();

    // The recipe editor changes it.
    await page.getByRole('button', { name: `Edit recipe: ${ESPRESSO}` }).click();
    const editor = page.getByTestId('recipe-editor');
    await editor.waitFor();
    assert.equal(await page.getByTestId('recipe-quantity-0').inputValue(), '7');
    await page.getByTestId('recipe-add').click();
    await page.getByTestId('recipe-submit').click();
    await editor.getByText('This field is required').first().waitFor();
    await editor.getByRole('button', { name: 'Remove component' }).last().click();
    await page.getByTestId('recipe-quantity-0').fill('8');
    await page.getByTestId('recipe-submit').click();
    await page.getByText('Recipe updated successfully').waitFor();
    await gridRow('composites-grid', ESPRESSO).filter({ hasText: `${BEANS} 8 g` }).waitFor();
  });

  test('a machine is created at the location and its secret is shown once', async () => {
    await go('/settings/machine-management');
    await page.getByTestId('new-machine').click();
    await page.waitForURL((url) => url.pathname === '/settings/create-machine');
    await page.getByTestId('machine-submit').click();
    await page.getByText('This field is required').waitFor();
    await page.locator('input[name=name]').fill(MACHINE);
    await pick('machine-location', LOCATION);
    await pick('machine-model', MODEL);
    await page.locator('input[name=serial]').fill(`SN-${tag}`);
    await page.locator('input[name=firmware]').fill('4.2.1');
    await page.locator('input[name=connection_method]').fill('LTE');
    await page.locator('input[name="peripherals.coin_changer.fitted"]').check();
    await page.locator('input[name="peripherals.coin_changer.serial"]').fill(`CC-${tag}`);
    await page.getByTestId('machine-submit').click();

    const secretDialog = page.getByTestId('secret-dialog');
    await secretDialog.waitFor();
    await page.getByText('Machine created successfully').waitFor();
    const secret = await page.getByTestId('secret-value').inputValue();
    assert.ok(secret.length >= 16, `secret "${secret}"`);
    await secretDialog.getByText('It is shown only this once').waitFor();
    await page.getByTestId('secret-close').click();
    await page.waitForURL((url) => /^\/settings\/machine-management\/[^/]+\/overview$/.test(url.pathname));
    machineId = new URL(page.url()).pathname.split('/')[3];

    // Telemetry fields show "—" until events arrive; the secret is in no later reply.
    await page.getByTestId('overview-last-sale').getByText('—', { exact: true }).waitFor();
    await page.getByTestId('overview-location').getByText(LOCATION).waitFor();
    const details = await call('GET', `/api/machines/${machineId}/details/`);
    assert.equal(details.body.data.webhook_secret, undefined);
    assert.equal(details.body.data.location_name, LOCATION);
    assert.equal(details.body.data.peripherals.coin_changer.serial, `CC-${tag}`);

    await go('/settings/machine-management');
    await gridRow('machines-grid', MACHINE).filter({ hasText: LOCATION }).waitFor();
  });

  test('three selections are added inline, with validation', async () => {
    await go(`/settings/machine-management/${machineId}/products`);
    await page.getByText('No product selections yet').waitFor();
    const selections = [
      ['A1', WATER, '10', '0,90', '2'],
      ['A2', CHIPS, '8', '1.20', '0'],
      ['B1', ESPRESSO, '50', '1.10', '5'],
    ];
    for (const [code, product, max, price, current] of selections) {
      await page.getByTestId('add-selection').click();
      await page.getByTestId('planogram-selection').fill(code);
      await pick('planogram-product', product);
      await page.getByTestId('planogram-max').fill(max);
      await page.getByTestId('planogram-price').fill(price);
      await page.getByTestId('planogram-current').fill(code === 'A1' ? '12' : current);
      if (code === 'A1') {
        // More in stock than fits: shown inline, nothing is sent.
        await page.getByTestId('planogram-error').filter({ hasText: 'Cannot be more than max' }).waitFor();
        await page.getByTestId('planogram-current').fill(current);
        await page.getByTestId('planogram-error').waitFor({ state: 'detached' });
      }
      await page.getByTestId('planogram-save').click();
      if (code === 'A1') {
        // Later saves repeat the same message, which the snackbar shows only once at a time
        // (no duplicates): the grid row is what tells them apart.
        await page.getByText('Selection saved successfully').first().waitFor();
      }
      await gridRow('planogram-grid', product).filter({ hasText: code }).waitFor();
      await page.getByTestId('planogram-selection').waitFor({ state: 'detached' });
    }
    const saved = await planogram();
    assert.deepEqual(Object.keys(saved).sort(), ['A1', 'A2', 'B1']);
    assert.equal(saved.A1.price_minor, 90);
    assert.equal(saved.A2.price_minor, 120);
    assert.equal(saved.B1.current, 5);
  });

  test("a selection's price is edited as a decimal amount", async () => {
    await page.getByRole('menuitem', { name: 'Edit: A2' }).or(page.getByRole('button', { name: 'Edit: A2' })).click();
    assert.equal(await page.getByTestId('planogram-price').inputValue(), '1.20');
    await page.getByTestId('planogram-price').fill('1,35');
    await page.getByTestId('planogram-save').click();
    // The same message may still be showing from the last save (no duplicate snackbars): the
    // grid row shows the change.
    await gridRow('planogram-grid', CHIPS).filter({ hasText: '€1.35' }).waitFor();
    assert.equal((await planogram()).A2.price_minor, 135);
  });

  test('fill stock fills every selection to its max after confirmation', async () => {
    await page.getByTestId('fill-stock').click();
    await page.getByRole('dialog').getByText('Fill every selection of this machine to its max?').waitFor();
    await page.getByTestId('confirm-dialog-submit').click();
    await page.getByText('Stock filled successfully').waitFor();
    const filled = await planogram();
    for (const row of Object.values(filled)) {
      assert.equal(row.current, row.max, row.selection);
      assert.equal(row.remaining, 0, row.selection);
    }
  });

  test("the machine's refills tab lists the fill-stock entries with the admin as employee", async () => {
    await page.getByTestId('machine-tab-refills').click();
    await page.waitForURL((url) => url.pathname === `/settings/machine-management/${machineId}/refills`);
    const fills = gridRow('refills-grid', 'Fill stock');
    await fills.first().waitFor();
    assert.equal(await fills.count(), 3);
    for (const [product, added] of [
      [WATER, '8'],
      [CHIPS, '8'],
      [ESPRESSO, '45'],
    ]) {
      const row = fills.filter({ hasText: product });
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      assert.match(text, new RegExp(admin.name));
      assert.match(text, new RegExp(added));
    }
    const log = await call('GET', `/api/refills/?machine=${machineId}`);
    assert.equal(log.body.data.filter((entry) => entry.source === 'fill-stock').length, 3);
  });

  test('no console errors on any visited page', () => {
    assert.ok(visited.size >= 4, `visited only ${[...visited].join(', ')}`);
    assert.deepEqual(consoleLog.errors, []);
  });
});
