// End-to-end flow of issue 25's settings against the real `vendfleet serve` with a small seeded
// demo fleet: the demo administrator (every module, every machine: a fleet administrator) opens
// Settings › Data policy, adds an allowed mail domain and a longer interval and saves them (kept
// across a reload); then exports the sales overview's detail table and finds that export in
// Settings › Audit trail (how, what, the machines it covered).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

const tag = Date.now().toString(36);
const DOMAIN = `partner-${tag}.example.com`;
const POLICY = '/settings/data-policy';
const AUDIT = '/settings/audit-trail';

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };

const pathOf = (response) => new URL(response.url()).pathname;
const isCall = (method, path) => (response) => response.request().method() === method && pathOf(response) === path;

/** The allowed domains the form shows, as chips. */
const chips = () => page.getByTestId('policy-form').locator('.MuiChip-label').allTextContents();

describe('data policy and audit trail', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ seed: { machines: 2, days: 5 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=${encodeURIComponent(POLICY)}`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === POLICY);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the data policy: the operator’s zone, a domain added and the interval changed, saved and kept', async () => {
    await page.getByTestId('policy-form').waitFor();
    assert.ok((await page.getByTestId('policy-time-zone').inputValue()).length > 0, 'the operator’s time zone');
    // No domain yet: scheduled reports go to users only.
    assert.equal(await page.getByTestId('policy-domains-message').textContent(), 'None: scheduled reports go to users only.');
    assert.equal(await page.getByTestId('policy-read-only').count(), 0, 'the demo administrator may change it');

    await page.getByTestId('policy-domains').fill(DOMAIN);
    await page.getByTestId('policy-domains').press('Enter');
    await page.getByTestId('policy-form').getByText(DOMAIN, { exact: true }).waitFor();
    await page.getByTestId('policy-min-interval').fill('20');

    const saved = page.waitForResponse(isCall('PUT', '/api/settings/operator/'));
    saved.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    await page.getByTestId('policy-submit').click();
    const reply = await saved;
    assert.equal(reply.status(), 200, await reply.text());
    assert.deepEqual(JSON.parse(reply.request().postData() ?? '{}'), { mail_domains: [DOMAIN], min_task_interval_minutes: 20, version: 0 });
    await page.getByText('Data policy saved').waitFor();
    await page.getByTestId('policy-updated').waitFor();

    await page.reload();
    await page.getByTestId('policy-form').getByText(DOMAIN, { exact: true }).waitFor();
    assert.deepEqual(await chips(), [DOMAIN]);
    assert.equal(await page.getByTestId('policy-min-interval').inputValue(), '20');
    // A fleet administrator's menu lists both settings screens.
    const nav = page.getByRole('navigation', { name: 'main' });
    await nav.getByRole('link', { name: 'Data policy' }).waitFor();
    await nav.getByRole('link', { name: 'Audit trail' }).waitFor();
  });

  test('an export of the sales overview shows in the audit trail', async () => {
    await page.goto(`${server.baseUrl}/report/sales-overview?period=current_month`);
    await page.getByTestId('sales-detail-grid').waitFor();
    const downloaded = page.waitForEvent('download');
    downloaded.catch(() => undefined);
    await page.getByTestId('sales-detail-export').click();
    await page.getByRole('menuitem', { name: 'Export CSV' }).click();
    const download = await downloaded;
    const fileName = download.suggestedFilename();
    assert.match(fileName, /\.csv$/);

    // The menu offers the audit trail to the fleet administrator.
    const nav = page.getByRole('navigation', { name: 'main' });
    await nav.getByRole('button', { name: 'Settings' }).click();
    const listed = page.waitForResponse(isCall('GET', '/api/audit/exports/'));
    listed.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    // The menu offers it; a click landing while the section is still unfolding under load can be
    // lost, so the link is clicked again until the address changes.
    const link = nav.getByRole('link', { name: 'Audit trail' });
    for (let attempt = 0; new URL(page.url()).pathname !== AUDIT; attempt += 1) {
      assert.ok(attempt < 4, 'the audit trail link did not open the audit trail');
      await link.click();
      await page.waitForURL((url) => url.pathname === AUDIT, { timeout: 5000 }).catch(() => undefined);
    }
    const reply = await listed;
    assert.equal(reply.status(), 200, await reply.text());

    const grid = page.getByTestId('audit-grid');
    const row = grid.getByRole('row').filter({ hasText: fileName }).first();
    await row.waitFor();
    const text = await row.textContent();
    assert.match(text, /Export/);
    assert.match(text, /\/api\/sales-journal\//);
    assert.match(text, /All machines/);
    assert.match(text, /Downloaded/);

    // Only exports: the filter goes to the address and the row stays.
    await page.getByTestId('audit-kind-filter').click();
    await page.getByRole('option', { name: 'Export', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('kind') === 'export');
    await grid.getByRole('row').filter({ hasText: fileName }).first().waitFor();
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
