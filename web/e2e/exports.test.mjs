// End-to-end flow of issue 9 (large exports as background jobs) against the real `vendfleet serve`
// started with VENDFLEET_EXPORT_INLINE_ROWS=1: any list of more than one row is exported by a job
// the page follows until its file is ready, then downloaded.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const tag = Date.now().toString(36);
const OTHER = { name: `Olga Export ${tag}`, email: `olga.${tag}@vendfleet.test` };

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };

/** A call with the signed-in user's token, straight from the page. */
function call(method, path, body) {
  return apiCall(page, method, path, body);
}

describe('vendfleet exports as background jobs', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ env: { VENDFLEET_EXPORT_INLINE_ROWS: '1' } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=%2Fsettings%2Fuser-management`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/settings/user-management');
    // The admin plus one more user: two rows, more than the one allowed inline.
    const created = await call('POST', '/api/users/', {
      ...OTHER,
      password: 'Olga-pass-1234',
      language: 'en',
      active: true,
      access_all_modules: false,
      access_all_machines: true,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the users export is queued, followed, and downloaded when ready', async () => {
    await page.reload();
    await page.getByTestId('users-grid').getByRole('row').filter({ hasText: OTHER.email }).waitFor();

    const queued = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/users/export/');
    const downloaded = page.waitForEvent('download');
    downloaded.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    await page.getByTestId('users-export').click();
    await page.getByRole('menuitem', { name: 'Export CSV' }).click();

    assert.equal((await queued).status(), 202);

    // The progress notice (while the job runs), then the ready notice with the link again.
    await page.getByTestId('export-job').or(page.getByText('users.csv is ready')).first().waitFor();
    await page.getByText('users.csv is ready').waitFor();
    const href = await page.getByTestId('export-job-link').getAttribute('href');
    assert.ok(href, 'the ready notice links the file');
    assert.equal(new URL(href).origin, server.baseUrl);
    assert.match(new URL(href).pathname, /^\/files\//);
    await page.getByTestId('export-job').waitFor({ state: 'detached' });

    const download = await downloaded;
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(csv, new RegExp(ADMIN.email.replace(/\./g, '\\.')));
    assert.match(csv, new RegExp(OTHER.email.replace(/\./g, '\\.')));
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
