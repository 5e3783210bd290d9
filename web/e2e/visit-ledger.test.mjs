// The visit ledger (issue 31) against the real `vendfleet serve`: the server's clock starts on
// Thursday 26 November 2026 at 08:00 UTC over an empty fleet. Two machines are made through the
// API and their webhooks get signed events (signed at the server's time: the clock runs on from
// its start). The lobby machine: a first collection, four cash vends of €1.50, then a second
// collection €0.50 short — nothing explains it. The gym machine: a first collection, stock typed
// in by hand on its planogram (a manual entry in the refill log), two cash vends of €1.00, a
// second collection with €1.00 in the box, and a cash vend of before that collection arriving after
// it: €2.00 short, explained by the hand entry and the late sale.
// The screen shows the unexplained line standing out; a line's "Why?" opens its explanation in
// words; the by-employee and by-machine sums; axe finds nothing with the explanation open.
// SHOTS_DIR=<dir> saves the screen with an explanation open in English and French.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from './server.mjs';
import { axeFindings } from './axe.mjs';
import { launchBrowser } from './browser.mjs';
import { apiCall, signedInPage } from './signed-in.mjs';

const CLOCK_START = '2026-11-26T08:00:00Z';
const SCREEN = '/report/visit-ledger?period=custom&date_from=2026-11-20&date_to=2026-11-26';
const SHOTS_DIR = process.env.SHOTS_DIR;

let server;
let browser;
let page;
/** When the server's clock began (ours, ms): its time is CLOCK_START plus what passed since. */
let began;
const consoleLog = { errors: [], expected: [] };
/** `{ lobby, gym }`: `{ id, name, secret }`. */
const machines = {};
let employee;

/** The server's time now, in ms: its clock started at CLOCK_START as the process did (a second's slack either way is within the webhook's window). */
const serverNow = () => Date.parse(CLOCK_START) + (Date.now() - began);
const iso = (ms) => new Date(ms).toISOString();
const text = async (locator) => ((await locator.textContent()) ?? '').replace(/\s/g, ' ');

/** Posts `events` to a machine's webhook, signed as the machine signs them; all must be accepted. */
async function post(machine, events) {
  const body = JSON.stringify({ events });
  const timestamp = String(Math.floor(serverNow() / 1000));
  const signature = createHmac('sha256', machine.secret).update(`${timestamp}.${body}`).digest('hex');
  const reply = await fetch(`${server.baseUrl}/webhooks/machines/${machine.id}/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Vendfleet-Timestamp': timestamp, 'X-Vendfleet-Signature': `v1=${signature}` },
    body,
  });
  const answer = await reply.json();
  assert.equal(reply.status, 200, JSON.stringify(answer));
  assert.deepEqual(answer.data?.rejected ?? [], [], JSON.stringify(answer));
}

/** A cash collection: the box holds `box` (minor units), the tubes stay at €10.00, the bag holds the box. */
const collection = (id, at, bag, box) => ({
  id,
  type: 'cash_collection',
  at,
  bag_no: bag,
  employee_id: employee,
  cash_box_minor: box,
  bill_stacker_minor: 0,
  tubes_minor: 1000,
  ejected_minor: 0,
  refilled_coins_minor: 0,
  collected_minor: box,
});
const cashVend = (id, at, price) => ({ id, type: 'vend', at, selection: 'A1', price_minor: price, quantity: 1, payment: 'cash' });

async function shot(name) {
  if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: false });
}

/** The ledger grid's rows as `machine | bag | variance | status`, once it has settled. */
async function gridRows() {
  await page.locator('[data-testid="visit-ledger-grid"] .MuiDataGrid-row').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="visit-ledger-grid"] .MuiLinearProgress-root'));
  return page
    .getByTestId('visit-ledger-grid')
    .locator('.MuiDataGrid-row')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const cell = (field) => row.querySelector(`[data-field="${field}"]`);
        const plain = (node) => node?.textContent?.replace(/\s/g, ' ') ?? '';
        return `${plain(cell('machine_name'))} | ${plain(cell('bag_no'))} | ${plain(cell('variance_minor')?.querySelector('[data-testid="visit-variance"]'))} | ${cell('status')?.querySelector('[data-testid="visit-status"]')?.getAttribute('data-status') ?? ''}`;
      }),
    );
}

describe('visit ledger', { concurrency: false }, () => {
  before(async () => {
    began = Date.now();
    server = await startServer({ env: { VENDFLEET_CLOCK_START: CLOCK_START, VENDFLEET_TIME_ZONE: 'Europe/Paris' } });
    browser = await launchBrowser();
    page = await signedInPage(browser, server.baseUrl, consoleLog, { timezoneId: 'Europe/Paris', acceptDownloads: true });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('two machines send their collections and cash sales through their webhooks', async () => {
    employee = (await apiCall(page, 'GET', '/api/users/me/')).body.data.id;
    for (const [key, name] of [['lobby', 'Lobby snack'], ['gym', 'Gym drinks']]) {
      const made = await apiCall(page, 'POST', '/api/machines/', { name });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      machines[key] = { id: made.body.data.id, name, secret: made.body.data.webhook_secret };
    }
    // The lobby: €6.00 of cash sales between its collections, €5.50 in the box — €0.50 short.
    await post(machines.lobby, [
      collection('lobby-c1', '2026-11-25T08:00:00Z', 'L-1', 0),
      cashVend('lobby-v1', '2026-11-25T09:00:00Z', 150),
      cashVend('lobby-v2', '2026-11-25T10:00:00Z', 150),
      cashVend('lobby-v3', '2026-11-25T11:00:00Z', 150),
      cashVend('lobby-v4', '2026-11-25T12:00:00Z', 150),
      collection('lobby-c2', '2026-11-25T16:00:00Z', 'L-2', 550),
    ]);

    // The gym: a product on its planogram, its first collection now, then stock typed in by hand.
    const product = await apiCall(page, 'POST', '/api/products/', { name: 'Water 50 cl', sku: 'W50', price_minor: 100, currency: 'EUR', vat_bps: 550, units: 'pcs', max_quantity: 20, tag_ids: [], inactive: false, is_composite: false, recipe: [] });
    assert.equal(product.status, 201, JSON.stringify(product.body));
    const selection = { machine_id: machines.gym.id, selection: 'A1', product_id: product.body.data.id, max: 20, price_minor: 100, current: 10, expiry_date: null };
    assert.equal((await apiCall(page, 'POST', '/api/machines/products/', selection)).status, 200);
    await post(machines.gym, [collection('gym-c1', iso(serverNow() + 1000), 'G-1', 0)]);
    // The hand entry must come after that collection on the server's clock.
    await page.waitForTimeout(2500);
    const typed = await apiCall(page, 'PUT', `/api/machines/${machines.gym.id}/products/A1/stock/`, { current: 16, expiry_date: null });
    assert.equal(typed.status, 200, JSON.stringify(typed.body));
    await page.waitForTimeout(1500);
    const t = serverNow();
    await post(machines.gym, [cashVend('gym-v1', iso(t), 100), cashVend('gym-v2', iso(t + 1000), 100), collection('gym-c2', iso(t + 3000), 'G-2', 100)]);
    // A cash vend of before the collection, arriving after it.
    await post(machines.gym, [cashVend('gym-v3', iso(t + 2000), 100)]);

    const reply = await apiCall(page, 'GET', `/api/visit-ledger/?period=custom&date_from=2026-11-20&date_to=2026-11-26`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const byBag = Object.fromEntries(reply.body.data.map((line) => [line.bag_no, line]));
    assert.equal(byBag['L-1'].status, 'first');
    assert.equal(byBag['L-2'].status, 'unexplained', JSON.stringify(byBag['L-2']));
    assert.equal(byBag['L-2'].cash_sales_minor, 600);
    assert.equal(byBag['L-2'].variance_minor, -50);
    // €3.00 of cash sales (the late one counts: it was sold before the collection), €1.00 in the box.
    assert.equal(byBag['G-2'].status, 'explained', JSON.stringify(byBag['G-2']));
    assert.equal(byBag['G-2'].variance_minor, -200);
    assert.deepEqual(byBag['G-2'].explanations.map((explanation) => explanation.kind).sort(), ['late_event', 'manual_stock_entry']);
  });

  test('the screen shows the unexplained line standing out, and a line’s explanation in words', async () => {
    await page.goto(`${server.baseUrl}${SCREEN}`);
    const unexplained = page.getByTestId('visit-status-unexplained');
    await unexplained.filter({ hasText: 'Unexplained: 1' }).waitFor();
    assert.match((await unexplained.getAttribute('class')) ?? '', /colorError/);
    const rows = await gridRows();
    assert.ok(rows.includes('Lobby snack | L-2 | -€0.50 | unexplained'), rows.join('\n'));
    assert.ok(rows.includes('Lobby snack | L-1 | — | first'), rows.join('\n'));
    assert.ok(rows.some((row) => row.startsWith('Gym drinks | G-2 |') && row.endsWith('| explained')), rows.join('\n'));

    // The unexplained line: its chain, and that nothing explains it.
    const lobby = page.getByTestId('visit-ledger-grid').locator('.MuiDataGrid-row').filter({ hasText: 'L-2' });
    await lobby.getByRole('button', { name: /^Why\?/ }).click();
    const drawer = page.getByTestId('visit-explanation');
    await drawer.waitFor();
    assert.equal(await text(drawer.getByTestId('visit-unexplained')), 'No record explains this variance.');
    assert.match(await text(drawer.getByTestId('visit-chain-previous')), /bag L-1/);
    assert.equal(await text(drawer.getByTestId('visit-chain-sales').locator('div').first()), '€6.00');
    assert.equal(await text(drawer.getByTestId('visit-chain-counted').locator('div').first()), '€5.50');
    await page.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });

    // The explained one: each record in words.
    await page.getByTestId('visit-ledger-grid').locator('.MuiDataGrid-row').filter({ hasText: 'G-2' }).click();
    await drawer.waitFor();
    const items = drawer.getByTestId('visit-explanation-item');
    await items.first().waitFor();
    const said = await items.evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-kind')}: ${node.textContent?.replace(/\s/g, ' ')}`));
    assert.equal(said.length, 2, said.join('\n'));
    assert.ok(said.some((item) => item.startsWith('manual_stock_entry: Stock was typed in by hand on Nov 26, 2026 (6 units) — hand entries make a variance now and the opposite next visit')), said.join('\n'));
    assert.ok(said.includes('late_event: 1 cash sale (€1.00) arrived after the collection was bookedRecords: gym-v3'), said.join('\n'));
    assert.equal(await drawer.getByTestId('visit-unexplained').count(), 0);
    assert.deepEqual(await axeFindings(page), []);
    await shot('visit-ledger-explanation-en');
  });

  test('the unexplained chip shows only the unexplained line; the sums by employee and machine', async () => {
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.getByTestId('visit-status-unexplained').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'unexplained');
    const deadline = Date.now() + 10_000;
    let rows = await gridRows();
    while (rows.length !== 1 && Date.now() < deadline) {
      await page.waitForTimeout(100);
      rows = await gridRows();
    }
    assert.deepEqual(rows, ['Lobby snack | L-2 | -€0.50 | unexplained']);
    const byEmployee = page.getByTestId('visit-by-employee');
    await byEmployee.locator('.MuiDataGrid-row').first().waitFor();
    await page.getByTestId('visit-tab-machine').click();
    const byMachine = page.getByTestId('visit-by-machine');
    await byMachine.locator('.MuiDataGrid-row').filter({ hasText: 'Lobby snack' }).waitFor();
    await byMachine.locator('.MuiDataGrid-row').filter({ hasText: 'Gym drinks' }).waitFor();
  });

  test('the export is the ledger of the filters and statuses as a file, the explanations in words', async () => {
    await page.goto(`${server.baseUrl}${SCREEN}&status=unexplained,explained`);
    await page.getByTestId('visit-ledger-grid').locator('.MuiDataGrid-row').first().waitFor();
    const downloaded = page.waitForEvent('download');
    downloaded.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    await page.getByTestId('visit-ledger-export').click();
    await page.getByRole('menuitem', { name: 'Export CSV' }).click();
    const download = await downloaded;
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(csv, /L-2/);
    assert.match(csv, /G-2/);
    // Only the chosen statuses: the first collections are not in the file.
    assert.doesNotMatch(csv, /L-1|G-1/);
  });

  test('in French', async () => {
    const switched = await apiCall(page, 'POST', '/api/settings/languges/switch/', { language: 'fr' });
    assert.equal(switched.status, 200, JSON.stringify(switched.body));
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.getByTestId('visit-status-unexplained').filter({ hasText: 'Inexpliqué : 1' }).waitFor();
    await page.getByTestId('visit-ledger-grid').locator('.MuiDataGrid-row').filter({ hasText: 'L-2' }).getByRole('button', { name: /^Pourquoi/ }).click();
    const drawer = page.getByTestId('visit-explanation');
    assert.equal(await text(drawer.getByTestId('visit-unexplained')), 'Aucun enregistrement n’explique cet écart.');
    if (SHOTS_DIR) {
      await page.getByRole('button', { name: 'Fermer' }).click();
      await drawer.waitFor({ state: 'detached' });
      await page.getByTestId('visit-ledger-grid').locator('.MuiDataGrid-row').filter({ hasText: 'G-2' }).click();
      await drawer.getByTestId('visit-explanation-item').first().waitFor();
      await shot('visit-ledger-explanation-fr');
    }
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
