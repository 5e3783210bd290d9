// End-to-end flow of issue 10 (sales from EVA-DTS audits) against the real `vendfleet serve`: a
// machine whose sales come from its audit reads, two audit files uploaded by hand, and the
// difference between them counted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const tag = Date.now().toString(36);
const MACHINE = `Audited snack ${tag}`;

/**
 * A small EVA-DTS audit file (CRLF line ends): selection 10 at 1.50 with its since-init counters;
 * with `g85` a G85 segment holding that checksum (one that does not match marks a changed file).
 */
function auditFile({ vends, valueMinor, reads, g85 }) {
  return [
    'DXS*VF00000001*VA*V1/1*1',
    'ST*001*0001',
    'ID1*SN-1*MODEL*0001',
    'ID4*2*1978',
    'PA1*10*150',
    `PA2*${vends}*${valueMinor}*0*0`,
    `EA3*${reads}*261122*1200`,
    ...(g85 ? [`G85*${g85}`, 'SE*8*0001'] : ['SE*7*0001']),
    'DXE*1*1',
    '',
  ].join('\r\n');
}

const FIRST = auditFile({ vends: 100, valueMinor: 15000, reads: 1 });
const SECOND = auditFile({ vends: 112, valueMinor: 16800, reads: 2 });
// Its G85 does not match its figures: held, whatever they say.
const CHANGED = auditFile({ vends: 130, valueMinor: 19500, reads: 3, g85: '0000' });

let server;
let browser;
let page;
let machineId;
const consoleLog = { errors: [], expected: [] };

/** A call with the signed-in user's token, straight from the page. */
function call(method, path, body) {
  return apiCall(page, method, path, body);
}

/** Uploads an audit file through the tab's dialog. */
async function upload(name, content) {
  await page.getByTestId('audit-upload').click();
  const dialog = page.getByTestId('audit-upload-dialog');
  await dialog.waitFor();
  await page.getByTestId('audit-file-input').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content, 'utf8') });
  await page.getByTestId('audit-file-name').getByText(name).waitFor();
  await page.getByTestId('audit-upload-submit').click();
  return dialog;
}

describe('vendfleet audit reads', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, locale: 'en-US', timezoneId: 'Europe/Rome' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=%2Fsettings%2Fcreate-machine`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/settings/create-machine');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a machine whose sales come from its audit reads is created through the form', async () => {
    await page.locator('input[name=name]').fill(MACHINE);
    await page.getByText('Vend events: each sale the machine reports counts').waitFor();
    await page.getByTestId('machine-sales-source').click();
    await page.getByRole('option', { name: 'Audit reads (EVA-DTS)' }).click();
    await page.getByTestId('machine-submit').click();
    await page.getByTestId('secret-dialog').waitFor();
    await page.getByTestId('secret-close').click();
    await page.waitForURL((url) => /^\/settings\/machine-management\/[^/]+\/overview$/.test(url.pathname));
    machineId = new URL(page.url()).pathname.split('/')[3];
    const details = await call('GET', `/api/machines/${machineId}/details/`);
    assert.equal(details.body.data.sales_source, 'audit');
  });

  test('two audit files uploaded by hand: the second read counts the 12 vends between them', async () => {
    await page.getByTestId('machine-tab-audits').click();
    await page.waitForURL((url) => url.pathname === `/settings/machine-management/${machineId}/audits`);
    await page.getByTestId('audits-intro').getByText('sales are the differences between consecutive audit reads', { exact: false }).waitFor();
    await page.getByText('No audit read yet').waitFor();

    let dialog = await upload('first.dex', FIRST);
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Audit read taken in').first().waitFor();
    const rows = page.getByTestId('audit-row');
    await rows.first().waitFor();
    assert.equal(await rows.first().getAttribute('data-state'), 'baseline');

    dialog = await upload('second.dex', SECOND);
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-testid=audit-row][data-state=counted]').waitFor();
    assert.equal(await rows.count(), 2);
    // Newest first.
    const newest = rows.first();
    assert.equal(await newest.getAttribute('data-state'), 'counted');
    assert.equal(await newest.getByTestId('audit-state').textContent(), 'Counted');
    assert.equal(await newest.getByTestId('audit-vends').textContent(), '12');
    assert.equal(await newest.getByTestId('audit-value').textContent(), '€18.00');
    assert.equal(await rows.nth(1).getAttribute('data-state'), 'baseline');

    // Its details show the selection's difference.
    await newest.getByRole('button', { name: 'Show details' }).click();
    const deltas = page.getByTestId('audit-deltas');
    await deltas.getByRole('row').filter({ hasText: '10' }).filter({ hasText: '€18.00' }).waitFor();

    const reply = await call('GET', `/api/machines/${machineId}/audits/`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(
      reply.body.data.map((read) => [read.state, read.vends]),
      [
        ['counted', 12],
        ['baseline', 0],
      ],
    );
  });

  test('the same file again makes no new read, and the dialog says so', async () => {
    const dialog = await upload('second-again.dex', SECOND);
    await dialog.getByTestId('audit-upload-duplicate').getByText('This file was taken in before').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('audit-row').count(), 2);
  });

  test('a read whose checksum does not match is held with its reason and what it would book; accepted, it books that', async () => {
    const dialog = await upload('changed.dex', CHANGED);
    await dialog.waitFor({ state: 'detached' });
    const heldList = page.getByTestId('held-reads');
    await heldList.getByText('Held reads (1)').waitFor();
    const held = heldList.getByTestId('held-read');
    await held.getByTestId('held-reason').filter({ hasText: 'Checksum wrong' }).waitFor();
    assert.match(await held.getByTestId('held-preview').textContent(), /18 vends, €27\.00/);
    assert.equal(await page.locator('[data-testid=audit-row][data-state=held]').count(), 1);

    await held.getByTestId('audit-accept').click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Accept this audit read?').waitFor();
    assert.match(await confirm.getByTestId('held-preview').textContent(), /18 vends, €27\.00/);
    await confirm.getByTestId('confirm-dialog-submit').click();
    await page.getByText('Audit read accepted').first().waitFor();
    await heldList.waitFor({ state: 'detached' });
    const newest = page.getByTestId('audit-row').first();
    await page.locator('[data-testid=audit-row][data-state=accepted]').waitFor();
    assert.equal(await newest.getByTestId('audit-vends').textContent(), '18');

    const reply = await call('GET', `/api/machines/${machineId}/audits/`);
    assert.deepEqual(
      reply.body.data.map((read) => [read.state, read.vends, read.held_for]),
      [
        ['accepted', 18, ['bad_checksum']],
        ['counted', 12, []],
        ['baseline', 0, []],
      ],
    );
  });

  test('the intake anomalies tab is there for who may edit machines, empty for this machine', async () => {
    await page.getByTestId('machine-tab-anomalies').click();
    await page.waitForURL((url) => url.pathname === `/settings/machine-management/${machineId}/anomalies`);
    await page.getByTestId('anomalies-empty').waitFor();
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
