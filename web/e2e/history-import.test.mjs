// The history import in a real browser at phone size (360 × 780), over a seeded demo fleet (each
// machine has its Nayax machine id): Nayax Core's export with two sales, one row in
// error and one unknown machine is chosen, uploaded and previewed; booking waits for "skip bad
// rows"; booked, the result says 2 stored, and the sales are in the machine's transaction log.
// The screen has no axe finding and nothing wider than the phone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { axeFindings } from './axe.mjs';
import { launchBrowser } from './browser.mjs';
import { apiCall, signedInPage } from './signed-in.mjs';

const CLOCK_START = '2026-11-26T08:00:00Z';
const HEADER = 'Transaction ID,Machine ID,Machine AuTime,SeValue,Currency,Payment Method ID (1),Product Code in Map,Quantity';

let server;
let browser;
let page;
const consoleLog = { errors: [] };

const text = async (locator) => ((await locator.textContent()) ?? '').replace(/\s/g, ' ');

describe('history import at phone size', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ env: { VENDFLEET_CLOCK_START: CLOCK_START, VENDFLEET_TIME_ZONE: 'Europe/Paris' }, seed: { machines: 4, days: 2 } });
    browser = await launchBrowser();
    page = await signedInPage(browser, server.baseUrl, consoleLog, { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('an export is previewed, then booked once its bad rows are skipped', async () => {
    const machines = (await apiCall(page, 'GET', '/api/machines/?page_size=10')).body.data;
    // A machine that counts its sales event by event (an audit machine takes no row-level sales).
    const machine = machines.find((m) => m.nayax_machine_id && m.sales_source !== 'audit');
    assert.ok(machine, JSON.stringify(machines.map((m) => [m.nayax_machine_id, m.sales_source])));
    const nayax = machine.nayax_machine_id;
    const planogram = (await apiCall(page, 'GET', `/api/machines/${machine.id}/products/`)).body.data;
    const selection = planogram[0].selection;
    const file = [
      HEADER,
      `9100001,${nayax},2026-06-01T10:00:00,1.5000,${machine.currency},1,${selection},1`,
      `9100002,${nayax},2026-06-02T11:30:00,2.4000,${machine.currency},3,${selection},2`,
      `9100003,${nayax},2026-06-03T12:00:00,"1,2x",${machine.currency},1,${selection},1`,
      `9100004,99999,2026-06-03T12:00:00,1.0000,${machine.currency},1,${selection},1`,
    ].join('\n');

    await page.goto(`${server.baseUrl}/settings/data-sources/import`);
    await page.getByTestId('new-import').waitFor();
    await page.getByTestId('import-file-input').setInputFiles({ name: 'nayax-2026.csv', mimeType: 'text/csv', buffer: Buffer.from(`${file}\n`) });
    await page.getByTestId('import-file-name').filter({ hasText: 'nayax-2026.csv' }).waitFor();
    await page.getByTestId('import-start').click();

    const preview = page.getByTestId('import-preview');
    await preview.waitFor({ timeout: 30_000 });
    assert.match(await text(page.getByTestId('preview-rows')), /4/);
    assert.match(await text(page.getByTestId('preview-sales')), /2/);
    assert.match(await text(page.getByTestId('preview-bad-rows')), /1/);
    assert.match(await text(page.getByTestId('preview-unmatched-rows')), /1/);
    assert.match(await text(preview), /99999/);
    assert.match(await text(preview), /SeValue/);
    assert.deepEqual(await axeFindings(page), []);
    const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
    assert.ok(overflow <= 1, `the page is ${overflow}px wider than the phone`);

    // Booking waits for the choice to skip the bad row.
    const book = page.getByTestId('import-book');
    assert.equal(await book.isDisabled(), true);
    await page.getByRole('checkbox').check();
    await book.click();
    const result = page.getByTestId('import-result');
    await result.waitFor({ timeout: 30_000 });
    assert.match(await text(page.getByTestId('result-stored')), /2/);

    const imports = (await apiCall(page, 'GET', '/api/settings/data-sources/imports/')).body.data;
    assert.equal(imports[0].status, 'booked');
    assert.equal(imports[0].result.stored, 2);
    const log = await apiCall(page, 'GET', `/api/transaction-logs/?date_from=2026-06-01&date_to=2026-06-03&machines=${machine.id}`);
    assert.equal(log.status, 200, JSON.stringify(log.body));
    assert.equal(log.body.pagination?.count ?? log.body.data.length, 2, JSON.stringify(log.body));
    assert.deepEqual(consoleLog.errors, []);
  });
});
