// Card settlements (issue 31) against the real `vendfleet serve`: the server's clock starts on
// Thursday 26 November 2026 over a seeded demo fleet (4 machines, 20 days of sales, card sales
// among them). Two machines get a terminal id (one through its settings form, one through the
// API); a mapping of the generic format is made in its dialog; a settlement file for 23 to 25
// November is uploaded through the import dialog's file input: one machine's 24th settled 1.00
// short and its 25th not in the file at all, the other machine's days settled exactly. The grid
// shows the short and the unsettled day; a broken file is refused naming its row and column,
// with nothing imported; the same good file again changes nothing; a corrected file supersedes
// its payout and the imported files say which corrected which.
// SHOTS_DIR=<dir> saves the screen and the import dialog with its errors in English and French.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer } from './server.mjs';
import { axeFindings } from './axe.mjs';
import { launchBrowser } from './browser.mjs';
import { apiCall, signedInPage } from './signed-in.mjs';

const CLOCK_START = '2026-11-26T08:00:00Z';
const SPAN = { from: '2026-11-23', to: '2026-11-25' };
const SCREEN = `/report/card-settlements?period=custom&date_from=${SPAN.from}&date_to=${SPAN.to}`;
const HEADER = 'date,terminal_id,gross,fees,net,transactions,payout_reference,currency';
const SHOTS_DIR = process.env.SHOTS_DIR;

let server;
let browser;
let page;
// The broken files' refusals (400) are logged by the browser on purpose.
const consoleLog = { errors: [], expected: [{ url: '/api/settlements/imports/', status: 400 }] };
/** The two machines given a terminal id: `{ id, name, terminal }`. */
const machines = [];
/** Card sales by `${terminal}|${date}`, as the reconciliation had them before any file. */
const sales = new Map();
let goodFile;

const text = async (locator) => ((await locator.textContent()) ?? '').replace(/\s/g, ' ');
const major = (minor) => (minor / 100).toFixed(2);

/** A settlement line of the generic format: fees of 3 % (net = gross − fees). */
function line(date, terminal, grossMinor, count, payout) {
  const fees = Math.round(grossMinor * 0.03);
  return [date, terminal, major(grossMinor), major(fees), major(grossMinor - fees), count, payout, 'EUR'].join(',');
}

/** A screenshot when SHOTS_DIR is set: the whole page, or what a dialog covers (`fullPage` false). */
async function shot(name, fullPage = true) {
  if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage });
}

async function openImport() {
  await page.getByTestId('settlement-import-open').click();
  const dialog = page.getByTestId('settlement-import-dialog');
  await dialog.waitFor();
  // The demo fleet brings its own processors' mappings: choose ours.
  const select = page.getByTestId('settlement-import-mapping');
  if (!(await select.filter({ hasText: 'Generic CSV' }).count())) {
    await select.click();
    await page.getByRole('option', { name: 'Generic CSV', exact: true }).click();
  }
  await select.filter({ hasText: 'Generic CSV' }).waitFor();
  return dialog;
}

async function upload(dialog, name, content) {
  await dialog.getByTestId('settlement-file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
  await dialog.getByTestId('settlement-file-name').filter({ hasText: name }).waitFor();
  await page.getByTestId('settlement-import-submit').click();
}

async function closeDialog() {
  await page.getByRole('dialog').getByRole('button', { name: /^(Close|Cancel|Fermer|Annuler)$/ }).click();
  await page.getByTestId('settlement-import-dialog').waitFor({ state: 'detached' });
}

/** The grid's rows as `machine | day | difference | status`. */
async function gridRows() {
  await page.locator('[data-testid="settlements-grid"][aria-busy="false"]').waitFor();
  return page
    .getByTestId('settlements-grid')
    .locator('.MuiDataGrid-row')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const cell = (field) => row.querySelector(`[data-field="${field}"]`)?.textContent?.replace(/\s/g, ' ') ?? '';
        const chip = (field, testId) => row.querySelector(`[data-field="${field}"] [data-testid="${testId}"]`)?.textContent?.replace(/\s/g, ' ') ?? '';
        return `${cell('machine_name')} | ${cell('date')} | ${chip('difference_minor', 'settlement-difference')} | ${chip('status', 'settlement-status')}`;
      }),
    );
}

/** Waits until the grid shows `expected` (a status chip filters at once, the grid draws a moment later). */
async function rowsBecome(expected) {
  const deadline = Date.now() + 10_000;
  let rows = await gridRows();
  while (JSON.stringify(rows) !== JSON.stringify(expected) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    rows = await gridRows();
  }
  assert.deepEqual(rows, expected);
}

/** Uploads a file the server refuses (400; the browser logs that request, see `consoleLog`). */
async function uploadRefused(dialog, name, content) {
  await upload(dialog, name, content);
  await dialog.getByTestId('settlement-import-problems').waitFor();
}

describe('card settlements', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ env: { VENDFLEET_CLOCK_START: CLOCK_START, VENDFLEET_TIME_ZONE: 'Europe/Paris' }, seed: { machines: 4, days: 20 } });
    browser = await launchBrowser();
    page = await signedInPage(browser, server.baseUrl, consoleLog);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('two machines get a terminal id: one in its settings form, one through the API', async () => {
    const list = await apiCall(page, 'GET', '/api/machines/?page_size=10');
    assert.equal(list.status, 200);
    // Two machines of the seed that sell by card every day of the span.
    const named = (name) => list.body.data.find((machine) => machine.name === name);
    const [first, second] = [named('BLQ001-D2'), named('MRS001-C1')];
    assert.ok(first && second, list.body.data.map((machine) => machine.name).join(', '));
    machines.push({ id: first.id, name: first.name, terminal: 'T-0001' }, { id: second.id, name: second.name, terminal: 'T-0002' });

    await page.goto(`${server.baseUrl}/settings/machine-management/${first.id}/settings`);
    const field = page.getByRole('textbox', { name: 'Terminal id' });
    await field.fill('T-0001');
    await page.getByTestId('machine-submit').click();
    await page.getByText('Machine updated successfully').or(page.locator('.notistack-MuiContent-success')).first().waitFor();
    assert.equal((await apiCall(page, 'GET', `/api/machines/${first.id}/details/`)).body.data.terminal_id, 'T-0001');

    const setTerminal = async (id, terminal) => {
      const details = (await apiCall(page, 'GET', `/api/machines/${id}/details/`)).body.data;
      const keep = ['name', 'serial', 'mcu_serial', 'model_id', 'location_id', 'firmware', 'connection_method', 'protocol', 'inactive', 'tag_ids', 'peripherals', 'currency', 'decimal_places', 'sales_source', 'version'];
      const body = { ...Object.fromEntries(keep.map((key) => [key, details[key]])), terminal_id: terminal };
      const saved = await apiCall(page, 'PUT', `/api/machines/${id}/settings/`, body);
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    };
    await setTerminal(second.id, 'T-0002');
    // The demo gives every machine a terminal: only ours are settled here.
    for (const machine of list.body.data) if (machine.id !== first.id && machine.id !== second.id) await setTerminal(machine.id, '');

    const before = await apiCall(page, 'GET', `/api/settlements/reconciliation/?period=custom&date_from=${SPAN.from}&date_to=${SPAN.to}`);
    assert.equal(before.status, 200);
    for (const row of before.body.data.rows) {
      assert.equal(row.status, 'not_settled');
      sales.set(`${row.terminal_id}|${row.date}`, row);
    }
    for (const machine of machines) for (const date of ['2026-11-23', '2026-11-24', '2026-11-25']) assert.ok(sales.get(`${machine.terminal}|${date}`)?.sales_minor > 0, `${machine.terminal} sold by card on ${date}`);
  });

  test('a mapping of the generic format is made in its dialog', async () => {
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.getByTestId('settlement-mapping-new').click();
    const form = page.getByTestId('settlement-mapping-form');
    await form.getByRole('textbox', { name: /^Processor/ }).fill('Generic CSV');
    await form.getByTestId('settlement-mapping-generic').click();
    assert.equal(await form.getByRole('textbox', { name: /^Transaction count/ }).inputValue(), 'transactions');
    assert.deepEqual(await axeFindings(page, '[role="dialog"]'), []);
    await form.getByTestId('settlement-mapping-submit').click();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('settlement-mappings').getByText('Generic CSV').waitFor();
  });

  test('a file with one short day and one missing day shows both mismatches', async () => {
    const [a, b] = machines;
    const at = (machine, date) => sales.get(`${machine.terminal}|${date}`);
    goodFile = [
      HEADER,
      line('2026-11-23', a.terminal, at(a, '2026-11-23').sales_minor, at(a, '2026-11-23').transactions, 'PO-2026-11-24'),
      // Settled 1.00 less than the machine sold by card that day.
      line('2026-11-24', a.terminal, at(a, '2026-11-24').sales_minor - 100, at(a, '2026-11-24').transactions, 'PO-2026-11-25'),
      // Nothing of machine A's 25th: not yet settled.
      ...['2026-11-23', '2026-11-24', '2026-11-25'].map((date) => line(date, b.terminal, at(b, date).sales_minor, at(b, date).transactions, date === '2026-11-25' ? 'PO-2026-11-26' : 'PO-2026-11-25')),
    ].join('\n');

    await page.goto(`${server.baseUrl}${SCREEN}`);
    const dialog = await openImport();
    await upload(dialog, 'settlement-2026-11.csv', `${goodFile}\n`);
    const done = dialog.getByTestId('settlement-import-done');
    await done.waitFor();
    assert.match(await text(done), /Imported 5 rows of settlement-2026-11\.csv\./);
    assert.match(await text(done), /PO-2026-11-24/);
    await closeDialog();

    await page.getByTestId('settlement-status-short').filter({ hasText: 'Short: 1' }).waitFor();
    assert.equal(await text(page.getByTestId('settlement-status-not_settled')), 'Not yet settled: 1');
    assert.equal(await text(page.getByTestId('settlement-status-matched')), 'Matched: 4');
    await page.getByTestId('settlement-status-short').click();
    await rowsBecome([`${a.name} | Nov 24, 2026 | -€1.00 | Short`]);
    await page.getByTestId('settlement-status-not_settled').click();
    await rowsBecome([`${a.name} | Nov 25, 2026 | -€${major(at(a, '2026-11-25').sales_minor)} | Not yet settled`]);
    await page.getByTestId('settlement-status-all').click();
    const all = await gridRows();
    assert.equal(all.length, 6, all.join('\n'));
    assert.equal(all.filter((row) => row.endsWith('| €0.00 | Matched')).length, 4, all.join('\n'));
    const payouts = page.getByTestId('settlements-payouts');
    for (const reference of ['PO-2026-11-24', 'PO-2026-11-25', 'PO-2026-11-26']) await payouts.getByText(reference, { exact: true }).waitFor();
    await page.getByTestId('settlement-imports').getByText('settlement-2026-11.csv').waitFor();
    await shot('card-settlements-en');
    // The a11y scan sees this screen empty (no terminal ids there): here with rows, chips and payouts.
    assert.deepEqual(await axeFindings(page), []);
  });

  test('a broken file is refused naming its row and column, and nothing is imported', async () => {
    const broken = `${HEADER}\n${line('2026-11-25', machines[0].terminal, 500, 3, 'PO-X')}\n2026-11-25,${machines[0].terminal},"1,5x",0.10,,3,PO-X,EUR\n`;
    const dialog = await openImport();
    await uploadRefused(dialog, 'broken.csv', broken);
    const problems = dialog.getByTestId('settlement-import-problems');
    assert.match(await text(problems), /Nothing was imported/);
    const items = await problems.getByTestId('settlement-import-problem').allTextContents();
    assert.ok(items.some((item) => item.startsWith('Row 3, column "gross"')), items.join('\n'));
    await shot('card-settlements-import-errors-en', false);
    assert.deepEqual(await axeFindings(page, '[role="dialog"]'), []);
    await closeDialog();
    const history = await apiCall(page, 'GET', '/api/settlements/imports/');
    assert.deepEqual(history.body.data.map((item) => item.file_name), ['settlement-2026-11.csv']);
    assert.equal(await text(page.getByTestId('settlement-status-not_settled')), 'Not yet settled: 1');
  });

  test('the same file again changes nothing, and says so', async () => {
    const dialog = await openImport();
    await upload(dialog, 'settlement-2026-11.csv', `${goodFile}\n`);
    const replayed = dialog.getByTestId('settlement-import-replayed');
    await replayed.waitFor();
    assert.match(await text(replayed), /settlement-2026-11\.csv was already imported on .*nothing changed\./);
    await closeDialog();
    assert.equal((await apiCall(page, 'GET', '/api/settlements/imports/')).body.data.length, 1);
  });

  test('a corrected file supersedes its payout, the history says which file corrected which', async () => {
    const [a, b] = machines;
    const at = (machine, date) => sales.get(`${machine.terminal}|${date}`);
    // The processor's corrected PO-2026-11-25: machine A's 24th settled in full this time.
    const corrected = [
      HEADER,
      line('2026-11-24', a.terminal, at(a, '2026-11-24').sales_minor, at(a, '2026-11-24').transactions, 'PO-2026-11-25'),
      line('2026-11-23', b.terminal, at(b, '2026-11-23').sales_minor, at(b, '2026-11-23').transactions, 'PO-2026-11-25'),
      line('2026-11-24', b.terminal, at(b, '2026-11-24').sales_minor, at(b, '2026-11-24').transactions, 'PO-2026-11-25'),
    ].join('\n');
    const dialog = await openImport();
    await upload(dialog, 'settlement-2026-11-corrected.csv', `${corrected}\n`);
    const done = dialog.getByTestId('settlement-import-done');
    await done.waitFor();
    assert.match(await text(done), /It corrects an earlier file/);
    await closeDialog();
    await page.getByTestId('settlement-status-short').filter({ hasText: 'Short: 0' }).waitFor();
    assert.equal(await text(page.getByTestId('settlement-status-matched')), 'Matched: 5');
    assert.equal(await text(page.getByTestId('settlement-status-not_settled')), 'Not yet settled: 1');
    const history = page.getByTestId('settlement-imports');
    await history.getByText('PO-2026-11-25 corrected by settlement-2026-11-corrected.csv').waitFor();
    await history.getByText('Corrects settlement-2026-11.csv').waitFor();
  });

  test('in French', async () => {
    const switched = await apiCall(page, 'POST', '/api/settings/languges/switch/', { language: 'fr' });
    assert.equal(switched.status, 200, JSON.stringify(switched.body));
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.getByTestId('settlement-status-not_settled').filter({ hasText: 'Pas encore réglé : 1' }).waitFor();
    await page.getByRole('heading', { name: 'Règlements carte' }).first().waitFor();
    await shot('card-settlements-fr');
    const dialog = await openImport();
    await uploadRefused(dialog, 'broken.csv', `${HEADER}\n2026-11-25,T-0001,"1,5x",0.10,,3,PO-X,EUR\n`);
    await dialog.getByTestId('settlement-import-problems').filter({ hasText: 'Rien n’a été importé' }).waitFor();
    await shot('card-settlements-import-errors-fr', false);
    await closeDialog();
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
