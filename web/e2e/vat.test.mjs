// The VAT report (issue 31) against the real `vendfleet serve`: the server's clock starts on
// Thursday 26 November 2026 over a seeded demo fleet (4 machines, 20 days of sales at several VAT
// rates, all in November). The screen's totals equal the sales overview's of the same span to the cent; its rates
// add up to them; grouped by month, each group shows its figures at each rate; the export
// downloads the report of the filters and grouping; and the screen speaks French.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startServer } from './server.mjs';
import { axeFindings } from './axe.mjs';
import { launchBrowser } from './browser.mjs';
import { apiCall, signedInPage } from './signed-in.mjs';

const CLOCK_START = '2026-11-26T08:00:00Z';
const SPAN = 'period=custom&date_from=2026-10-20&date_to=2026-11-25';
const SCREEN = `/report/vat?${SPAN}`;

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };
const euros = (minor) => `€${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const text = async (locator) => ((await locator.textContent()) ?? '').replace(/\s/g, ' ');

describe('VAT report', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ env: { VENDFLEET_CLOCK_START: CLOCK_START, VENDFLEET_TIME_ZONE: 'Europe/Paris' }, seed: { machines: 4, days: 20 } });
    browser = await launchBrowser();
    page = await signedInPage(browser, server.baseUrl, consoleLog, { acceptDownloads: true });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the totals equal the sales overview’s to the cent, and the rates add up to them', async () => {
    const sales = await apiCall(page, 'GET', `/api/sales-journal/total-table/?${SPAN}`);
    assert.equal(sales.status, 200, JSON.stringify(sales.body));
    const total = sales.body.data.total;
    assert.ok(total.sales_minor > 0);
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.locator('[data-testid="vat-by-rate"][aria-busy="false"]').waitFor();
    await page.getByTestId('vat-total-gross-value').filter({ hasText: euros(total.sales_minor) }).waitFor();
    assert.equal(await text(page.getByTestId('vat-total-net-value')), euros(total.sales_excl_tax_minor));
    assert.equal(await text(page.getByTestId('vat-total-vat-value')), euros(total.sales_minor - total.sales_excl_tax_minor));

    const vat = (await apiCall(page, 'GET', `/api/vat/?${SPAN}`)).body.data;
    const gross = vat.by_rate.reduce((sum, rate) => sum + rate.gross_minor, 0);
    assert.equal(gross, total.sales_minor);
    const rows = page.getByTestId('vat-by-rate').locator('.MuiDataGrid-row');
    assert.equal(await rows.count(), vat.by_rate.length);
    assert.deepEqual(await axeFindings(page), []);
  });

  test('grouped by month: each month at each rate, the grouping in the address', async () => {
    await page.getByTestId('vat-group-month').click();
    await page.waitForURL((url) => url.searchParams.get('group') === 'month');
    const groups = page.getByTestId('vat-groups');
    await groups.locator('.MuiDataGrid-row').filter({ hasText: 'Nov 2026' }).first().waitFor();
    // The demo's 20 days are all in November: a line per rate sold then.
    const vat = (await apiCall(page, 'GET', `/api/vat/?${SPAN}&group=month`)).body.data;
    assert.deepEqual([...new Set(vat.rows.map((row) => row.key))], ['2026-11']);
    assert.equal(await groups.locator('.MuiDataGrid-row').filter({ hasText: 'Nov 2026' }).count(), vat.rows.length);
  });

  test('the export is the report of the filters and the grouping, as a file', async () => {
    const downloaded = page.waitForEvent('download');
    downloaded.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/vat/export/');
    await page.getByTestId('vat-export').click();
    await page.getByRole('menuitem', { name: 'Export CSV' }).click();
    const params = new URL((await asked).url()).searchParams;
    assert.deepEqual([params.get('group'), params.get('date_from'), params.get('date_to'), params.get('format')], ['month', '2026-10-20', '2026-11-25', 'csv']);
    const download = await downloaded;
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(csv, /2026-11|Nov/);
  });

  test('in French', async () => {
    const switched = await apiCall(page, 'POST', '/api/settings/languges/switch/', { language: 'fr' });
    assert.equal(switched.status, 200, JSON.stringify(switched.body));
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.getByRole('heading', { name: 'TVA' }).first().waitFor();
    await page.getByTestId('vat-by-rate').getByText('Par taux de TVA').waitFor();
    await page.getByRole('group', { name: 'Regrouper par' }).waitFor();
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
