// End-to-end flow of the report screens against the real `vendfleet serve` with a seeded demo
// fleet (4 machines, 20 days ending now): encashment (totals, overs and shorts, CSV export), the
// refill log (one machine, a refill visit), the inventory (both tabs, a machine's stock, CSV
// exports), the transaction log when the server has it, a screen in French, and a tablet width.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ADMIN, startServer } from './server.mjs';
import { parseCsv } from './csv.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

// Twenty days of history always fall in the current and previous month.
const SPAN = 'period=current_and_previous_month';

let server;
let browser;
let page;
let token;
const consoleLog = { errors: [], expected: [] };

/** Asks the API directly (is an endpoint there?) with the admin's token. */
async function apiStatus(path) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
}

const isReply = (path) => (response) => new URL(response.url()).pathname === path && response.request().method() === 'GET';

/** Opens a screen and returns the first reply of `path` (JSON) it asks for. */
async function open(url, path) {
  const reply = page.waitForResponse(isReply(path));
  await page.goto(`${server.baseUrl}${url}`);
  const response = await reply;
  assert.equal(response.status(), 200, `${path} answered ${response.status()}`);
  return response.json();
}

/** The texts of one column of a grid's rows, once the grid shows `count` rows. */
async function columnTexts(grid, field, count) {
  const rows = page.getByTestId(`${grid}-grid`).locator('.MuiDataGrid-row');
  await page.waitForFunction(
    ([selector, expected]) => document.querySelectorAll(selector).length === expected,
    [`[data-testid="${grid}-grid"] .MuiDataGrid-row`, count],
  );
  assert.equal(await rows.count(), count);
  return page.getByTestId(`${grid}-grid`).locator(`.MuiDataGrid-row [data-field="${field}"]`).allTextContents();
}

/** Exports CSV with the export button `testId` and returns the file's records. */
async function exportCsv(testId) {
  const downloaded = page.waitForEvent('download');
  downloaded.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
  await page.getByTestId(testId).click();
  await page.getByRole('menuitem', { name: 'Export CSV' }).click();
  const download = await downloaded;
  assert.match(download.suggestedFilename(), /\.csv$/);
  return parseCsv(await readFile(await download.path(), 'utf8'));
}

describe('vendfleet report screens', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ seed: { machines: 4, days: 20 } });
    const signIn = await fetch(`${server.baseUrl}/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    token = (await signIn.json()).data.token.access;
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=${encodeURIComponent('/report/encashment')}`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/report/encashment');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('encashment: totals, overs and shorts by employee, and every collection in the CSV export', async () => {
    const list = await open(`/report/encashment?${SPAN}`, '/api/encashments/');
    const count = list.pagination.count;
    assert.ok(count > 0, 'the demo fleet has collections');
    const bags = await columnTexts('encashment-list', 'bag_no', Math.min(count, 25));
    assert.ok(bags.every((bag) => bag.startsWith('BAG-')), JSON.stringify(bags));
    await page.getByTestId('encashment-list-grid').getByTestId('over-short').first().waitFor();

    assert.equal(await page.getByTestId('encashment-total-collections-value').textContent(), String(count));
    assert.match(await page.getByTestId('encashment-total-collected-value').textContent(), /^€[\d,]+\.\d{2}$/);
    const employees = await page.getByTestId('encashment-by-employee').locator('.MuiDataGrid-row [data-field="name"]').allTextContents();
    assert.ok(employees.length > 0, 'collections by employee');
    await page.getByTestId('encashment-by-machine').locator('.MuiDataGrid-row').first().waitFor();

    const [header, ...records] = await exportCsv('encashment-export');
    assert.equal(header[0], 'Date');
    const bagColumn = header.indexOf('Bag no');
    assert.ok(bagColumn >= 0, JSON.stringify(header));
    assert.ok(header.includes('Over/short'), JSON.stringify(header));
    assert.equal(records.length, count);
    assert.deepEqual(records.map((record) => record[bagColumn]).slice(0, bags.length).sort(), [...bags].sort());
  });

  test('in French, the encashment speaks French', async () => {
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-fr').click();
    await page.getByText('Excédent / manque par employé').waitFor();
    await page.getByTestId('report-filters').getByText('Période').first().waitFor();
    await page.getByTestId('encashment-list').getByRole('columnheader', { name: 'Espèces collectées' }).waitFor();
    // Money in the French way: "1 234,56 €".
    await page.waitForFunction(() => /,\d{2}\s€$/.test(document.querySelector('[data-testid="encashment-total-collected-value"]')?.textContent ?? ''));
    assert.match((await page.getByTestId('encashment-total-collected-value').textContent()).replace(/\s/g, ' '), /^[\d ]+,\d{2} €$/);
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-en').click();
    await page.getByText('Over / short by employee').waitFor();
  });

  test('refill log: totals by product, the lines of one machine, and a refill visit', async () => {
    const list = await open('/report/refill-log', '/api/refills/');
    assert.ok(list.pagination.count > 0, 'the demo fleet has refills');
    await page.getByTestId('refill-list-grid').locator('.MuiDataGrid-row').first().waitFor();
    await page.getByTestId('refill-products').locator('.MuiDataGrid-row').first().waitFor();
    assert.match(await page.getByTestId('refill-total-added-value').textContent(), /^[1-9][\d,]*$/);

    // The shared machine filter: the log of the machine picked.
    const machine = list.data[0].machine;
    const reply = page.waitForResponse((response) => isReply('/api/refills/')(response) && new URL(response.url()).searchParams.has('machines'));
    await page.getByTestId('report-machines').click();
    await page.getByRole('option', { name: machine, exact: true }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.searchParams.has('machines'));
    const filtered = await (await reply).json();
    assert.ok(filtered.data.every((line) => line.machine === machine));
    await page.waitForFunction(
      ([expected]) => {
        const cells = [...document.querySelectorAll('[data-testid="refill-list-grid"] .MuiDataGrid-row [data-field="machine"]')];
        return cells.length > 0 && cells.every((cell) => cell.textContent === expected);
      },
      [machine],
    );

    const first = filtered.data[0];
    await page.getByTestId('refill-list-grid').getByRole('button', { name: `Show the refill visit of ${first.product_name}` }).first().click();
    const visit = page.getByTestId('refill-visit');
    await visit.getByText(`Refill of ${machine}`).waitFor();
    await visit.getByTestId('refill-visit-table').locator('.MuiDataGrid-row').first().waitFor();
    await visit.getByRole('button', { name: 'Close' }).click();
    await visit.waitFor({ state: 'detached' });
  });

  test('inventory: both tabs, a machine’s stock, and each tab’s CSV export', async () => {
    const products = await open('/report/inventory-report', '/api/inventories/');
    const productCount = products.pagination.count;
    assert.ok(productCount > 0, 'the demo fleet has stock');
    const names = await columnTexts('inventory-products', 'name', Math.min(productCount, 25));
    assert.deepEqual(names, products.data.map((row) => row.name));

    const [header, ...records] = await exportCsv('inventory-export');
    assert.equal(header[0], 'Product');
    assert.equal(records.length, productCount);
    const exported = records.map((record) => record[0]);
    assert.ok(names.every((name) => exported.includes(name)), 'the export holds the rows on screen');

    // A machine's selections, expiring soonest first.
    await page.getByTestId('machine-stock-open').click();
    await page.getByTestId('machine-stock-machine').click();
    await page.getByRole('option').first().click();
    await page.getByTestId('machine-stock-table').locator('.MuiDataGrid-row').first().waitFor();
    await page.getByTestId('machine-stock').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('machine-stock').waitFor({ state: 'detached' });

    const components = page.waitForResponse(isReply('/api/inventories/components/'));
    await page.getByTestId('inventory-tab-components').click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'components');
    const componentReply = await (await components).json();
    const componentCount = componentReply.pagination.count;
    assert.ok(componentCount > 0, 'the demo fleet has components');
    const componentNames = await columnTexts('inventory-components', 'name', Math.min(componentCount, 25));

    const [componentHeader, ...componentRecords] = await exportCsv('inventory-export');
    assert.equal(componentHeader[0], 'Component');
    assert.equal(componentRecords.length, componentCount);
    assert.deepEqual(componentRecords.slice(0, componentNames.length).map((record) => record[0]).sort(), [...componentNames].sort());
  });

  test('transaction log: totals against the span before and one page of the vends', async (t) => {
    if ((await apiStatus('/api/transaction-logs/?page_size=1')) === 404) {
      t.skip('this server has no transaction log yet');
      return;
    }
    const list = await open(`/report/transaction-log?${SPAN}`, '/api/transaction-logs/');
    const count = list.pagination.count;
    assert.ok(count > 25, `vends: ${count}`);
    const products = await columnTexts('transaction-list', 'product', 25);
    assert.deepEqual(products, list.data.map((row) => row.product));
    await page.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid="transaction-kpi-transactions-value"]')?.textContent ?? ''));
    assert.equal(await page.getByTestId('transaction-kpi-transactions-value').textContent(), new Intl.NumberFormat('en-US').format(count));
    assert.match(await page.getByTestId('transaction-kpi-sales_minor-value').textContent(), /^€[\d,]+\.\d{2}$/);
    // The grid pages on the server: only 25 rows came, the footer counts them all.
    await page.getByTestId('transaction-list-grid').getByText(new RegExp(`of (${count}|${new Intl.NumberFormat('en-US').format(count)})$`)).waitFor();

    const next = page.waitForResponse((response) => isReply('/api/transaction-logs/')(response) && new URL(response.url()).searchParams.get('page') === '2');
    await page.getByTestId('transaction-list-grid').getByRole('button', { name: /next page/i }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    assert.equal((await (await next).json()).data.length, 25);
  });

  test('on a tablet the filters stack and the grids scroll inside the page', async () => {
    await page.setViewportSize({ width: 820, height: 1000 });
    try {
      await open('/report/refill-log', '/api/refills/');
      await page.getByTestId('refill-list-grid').locator('.MuiDataGrid-row').first().waitFor();
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: document.documentElement.clientWidth,
        scroller: (() => {
          const scroller = document.querySelector('[data-testid="refill-list-grid"] .MuiDataGrid-virtualScroller');
          return scroller ? { scroll: scroller.scrollWidth, client: scroller.clientWidth } : null;
        })(),
      }));
      assert.ok(widths.page <= widths.view, `the page itself does not scroll sideways: ${JSON.stringify(widths)}`);
      assert.ok(widths.scroller && widths.scroller.scroll > widths.scroller.client, `the grid does: ${JSON.stringify(widths)}`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
