// Start-up and session against the real `vendfleet serve` (issue 29): a failing first request and a
// navigation while start-up is still running keep the user signed in (the stored tokens survive and
// the offline notice shows while retrying); only a refused token refresh signs the user out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

let server;
let browser;
let context;
let page;
const consoleLog = { errors: [], expected: [] };

const tokens = () =>
  page.evaluate(() => ({ access: localStorage.getItem('accessToken'), refresh: localStorage.getItem('refreshToken') }));
const path = () => new URL(page.url()).pathname;

describe('vendfleet session start-up', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=%2Fdashboard`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('dashboard-welcome').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('failing first requests are retried with an offline notice; the user stays signed in', async () => {
    const before = await tokens();
    assert.ok(before.access && before.refresh);
    let failures = 0;
    const fail = async (route) => {
      if (failures < 3) {
        failures += 1;
        await route.abort('internetdisconnected');
      } else await route.continue();
    };
    // The first API call of the start-up is the token check.
    await page.route('**/auth/token/verify/', fail);
    await page.reload();
    await page.getByTestId('offline-notice').waitFor();
    await page.getByTestId('dashboard-welcome').waitFor();
    await page.getByTestId('offline-notice').waitFor({ state: 'detached' });
    await page.unroute('**/auth/token/verify/', fail);
    assert.equal(failures, 3);
    assert.equal(path(), '/dashboard');
    assert.deepEqual(await tokens(), before);
  });

  test('a failing profile request is retried too', async () => {
    let failed = false;
    const fail = async (route) => {
      if (!failed) {
        failed = true;
        await route.abort('connectionreset');
      } else await route.continue();
    };
    await page.route('**/api/users/me/', fail);
    await page.reload();
    await page.getByTestId('dashboard-welcome').waitFor();
    await page.unroute('**/api/users/me/', fail);
    assert.ok(failed);
    assert.equal(path(), '/dashboard');
    assert.ok((await tokens()).access);
  });

  test('navigating and reloading while start-up runs keeps the session', async () => {
    const before = await tokens();
    let held = 0;
    let reached = () => {};
    const inFlight = () => new Promise((resolve) => (reached = resolve));
    // Hold the token check so the navigation lands mid start-up (the pending request is aborted).
    const hold = async (route) => {
      held += 1;
      reached();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => {});
    };
    await page.route('**/auth/token/verify/', hold);
    let waiting = inFlight();
    await page.reload({ waitUntil: 'commit' });
    await waiting;
    waiting = inFlight();
    await page.goto(`${server.baseUrl}/settings/user-management`, { waitUntil: 'commit' });
    await waiting;
    await page.reload({ waitUntil: 'commit' });
    await page.getByRole('heading', { name: 'User management' }).waitFor();
    await page.unroute('**/auth/token/verify/', hold);
    assert.ok(held >= 2, `start-up was interrupted ${held} times`);
    assert.equal(path(), '/settings/user-management');
    assert.deepEqual(await tokens(), before);
  });

  test('a refused token refresh signs the user out', async () => {
    // An access token the server rejects and a refresh token it refuses.
    await page.evaluate(() => {
      localStorage.setItem('accessToken', 'not-a-token');
      localStorage.setItem('refreshToken', 'not-a-refresh-token');
    });
    consoleLog.expected.push({ url: '/auth/token/', status: 401 }, { url: '/auth/token/', status: 400 });
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL((url) => url.pathname === '/auth/jwt/login');
    await page.locator('input[name=email]').waitFor();
    assert.deepEqual(await tokens(), { access: null, refresh: null });
  });

  test('no unexpected console errors', () => {
    // The requests this file aborts on purpose are logged by the browser as net::ERR_….
    const unexpected = consoleLog.errors.filter((line) => !/net::ERR_(INTERNET_DISCONNECTED|CONNECTION_RESET|ABORTED)/.test(line));
    assert.deepEqual(unexpected, []);
  });
});
