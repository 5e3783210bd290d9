// End-to-end flow of the sales overview against the real `vendfleet serve` with a seeded demo
// fleet (4 machines, 20 days of sales ending now): KPI cards, filters kept in the URL across a
// reload, the CSV export of the detail table, the screen in French, and the dashboard's link to it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

const SCREEN = '/report/sales-overview';

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };

/** The first field of each CSV record (quotes and doubled quotes undone). */
function firstColumn(csv) {
  const names = [];
  const text = csv.replace(/^\uFEFF/, '');
  let index = 0;
  while (index < text.length) {
    let name = '';
    if (text[index] === '"') {
      index += 1;
      while (index < text.length) {
        if (text[index] === '"' && text[index + 1] === '"') {
          name += '"';
          index += 2;
        } else if (text[index] === '"') {
          index += 1;
          break;
        } else name += text[index++];
      }
    }
    while (index < text.length && text[index] !== ',' && text[index] !== '\n') name += text[index++];
    // The rest of the record (later fields are numbers; a quoted one holds no line break).
    while (index < text.length && text[index] !== '\n') index += 1;
    index += 1;
    names.push(name.replace(/\r$/, ''));
  }
  return names.filter((name, position) => name !== '' || position < names.length - 1);
}

const detailNames = () => page.getByTestId('sales-detail-grid').locator('.MuiDataGrid-row [data-field="name"]').allTextContents();

/** Waits until the detail table's names satisfy `check`, and returns them. */
async function waitForNames(check, what) {
  const deadline = Date.now() + 15_000;
  let names = [];
  while (Date.now() < deadline) {
    names = await detailNames();
    if (names.length > 0 && check(names)) return names;
    await page.waitForTimeout(200);
  }
  throw new Error(`detail table never showed ${what}: ${JSON.stringify(names)}`);
}

async function choose(testId, option) {
  await page.getByTestId(testId).click();
  await page.getByTestId(`${testId}-${option}`).click();
}

const isDetailReply = (response) => new URL(response.url()).pathname === '/api/sales-journal/detail-table/';

describe('vendfleet sales overview', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ seed: { machines: 4, days: 20 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=${encodeURIComponent(SCREEN)}`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === SCREEN);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  let machineNames = [];
  let productNames = [];
  let productCount = 0;

  test('the KPI cards show the sales of the period', async () => {
    // Twenty days of history always fall in the current and previous month.
    await choose('report-period', 'current_and_previous_month');
    await page.waitForURL((url) => url.searchParams.get('period') === 'current_and_previous_month');
    const sales = page.getByTestId('kpi-sales_minor-value');
    await sales.waitFor();
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="kpi-sales_minor-value"]')?.textContent ?? '';
      return /[1-9]/.test(text);
    });
    assert.match(await sales.textContent(), /^€[\d,]+\.\d{2}$/);
    assert.match(await page.getByTestId('kpi-quantity-value').textContent(), /[1-9]/);
    for (const key of ['sales_excl_tax_minor', 'cash_minor', 'cashless_minor']) await page.getByTestId(`kpi-${key}-value`).waitFor();
    await page.getByTestId('sales-line-chart').locator('svg').first().waitFor();
    await page.getByTestId('sales-bar-chart').locator('svg').first().waitFor();
    machineNames = await waitForNames((names) => names.length === 4, 'the 4 machines');
  });

  test('grouping by product changes the URL and the tables', async () => {
    const reply = page.waitForResponse((response) => isDetailReply(response) && new URL(response.url()).searchParams.get('group_by') === 'product');
    await choose('report-group-by', 'product');
    await page.waitForURL((url) => url.searchParams.get('group_by') === 'product' && url.searchParams.get('period') === 'current_and_previous_month');
    productCount = (await (await reply).json()).pagination.count;
    assert.ok(productCount > 4, `products sold: ${productCount}`);
    await page.getByTestId('sales-detail-grid').getByRole('columnheader', { name: 'Product' }).waitFor();
    productNames = await waitForNames((names) => !names.some((name) => machineNames.includes(name)), 'products');
    assert.equal(productNames.length, Math.min(productCount, 25));
    await page.getByTestId('sales-total-table').getByText('Totals by product').waitFor();
  });

  test('a reload keeps the filters', async () => {
    const before = page.url();
    await page.reload();
    assert.equal(page.url(), before);
    await page.getByTestId('report-group-by').filter({ hasText: 'Product' }).waitFor();
    await page.getByTestId('report-period').filter({ hasText: 'Current and previous month' }).waitFor();
    const names = await waitForNames((list) => list.length === productNames.length, 'the products again');
    assert.deepEqual(names, productNames);
  });

  test('the CSV export holds the rows of the detail table', async () => {
    const downloaded = page.waitForEvent('download');
    downloaded.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    await page.getByTestId('sales-detail-export').click();
    await page.getByRole('menuitem', { name: 'Export CSV' }).click();
    const download = await downloaded;
    assert.match(download.suggestedFilename(), /\.csv$/);
    const [title, ...rows] = firstColumn(await readFile(await download.path(), 'utf8'));
    assert.equal(title, 'Product');
    assert.equal(rows.length, productCount);
    assert.deepEqual(rows.slice(0, productNames.length), productNames);
  });

  test('in French, the screen speaks French', async () => {
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-fr').click();
    await page.getByTestId('report-filters').getByText('Regrouper par').first().waitFor();
    await page.getByTestId('kpi-sales_excl_tax_minor').getByText('Ventes HT').waitFor();
    await page.getByTestId('report-group-by').filter({ hasText: 'Produit' }).waitFor();
    await page.getByText('Détail par période').waitFor();
    // Money in the French way: "1 234,56 €".
    assert.match((await page.getByTestId('kpi-sales_minor-value').textContent()).replace(/\s/g, ' '), /^[\d ]+,\d{2} €$/);
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-en').click();
    await page.getByTestId('report-filters').getByText('Group by').first().waitFor();
  });

  test('the dashboard leads from the month’s sales to the same figure on the sales overview', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    const monthSales = page.getByTestId('dashboard-month-sales_minor-value');
    await monthSales.waitFor();
    // The seeded sales end now: this month has some.
    await page.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid="dashboard-month-sales_minor-value"]')?.textContent ?? ''));
    const total = await monthSales.textContent();
    assert.match(total, /^€[\d,]+\.\d{2}$/);
    await page.getByTestId('dashboard-today-sales_minor-value').waitFor();
    // The attention list renders (the demo's stock varies: machines or "nothing needs attention").
    await page.getByTestId('dashboard-attention').waitFor();
    await page.locator('[data-testid="dashboard-attention-machine"], [data-testid="dashboard-attention-empty"]').first().waitFor();
    await page.getByTestId('dashboard-top-products-row').first().waitFor();

    await page.getByTestId('dashboard-month-sales_minor-link').click();
    await page.waitForURL((url) => url.pathname === SCREEN && url.searchParams.get('period') === 'current_month');
    await page.getByTestId('report-period').filter({ hasText: 'Current month' }).waitFor();
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="kpi-sales_minor-value"]')?.textContent === expected,
      total,
    );
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
