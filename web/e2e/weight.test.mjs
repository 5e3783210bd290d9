// What a first visit loads (issue 29), against the real `vendfleet serve`: the sign-in page fetches
// its own scripts and the shared strings of its language, nothing of the signed-in screens; the
// areas' strings and aws-amplify's REST client come when they are needed, in the language shown.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };
/** The scripts the page asked for, by chunk name (`assets/areas-fr-AbC123.js` → `areas-fr`): all, and since the step began. */
const seen = new Set();
let scripts = [];

const chunk = (url) => new URL(url).pathname.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '');
const lang = () => page.evaluate(() => document.documentElement.lang);
/** The catalogues' top-level keys, shared and areas'. */
const KEY_ROOTS = 'app|nav|account|help|header|settings|auth|validation|errors|success|common|exports|languages|replies|dashboard|users|clients|locations|models|machines|audits|anomalies|products|reports|sales|encashment|refillLog|inventory|transactionLog|reportGenerator|queryScheduler|routePlanning|plannedRoutes|dataPolicy|auditTrail|dataSources';
/** Translation keys shown as they are (`dashboard.today`): a string that did not arrive. */
const rawKeys = () =>
  page.evaluate((roots) => document.body.innerText.match(new RegExp(`\\b(${roots})\\.[a-zA-Z]+`, 'g')) ?? [], KEY_ROOTS);

describe('what a first visit loads', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })).newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    page.on('request', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(chunk(request.url()));
      seen.add(chunk(request.url()));
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the sign-in page: no signed-in screen, no areas strings, no transport before a request', async () => {
    await page.goto(`${server.baseUrl}/auth/jwt/login`);
    await page.getByTestId('login-submit').waitFor();
    assert.equal(await lang(), 'en');
    assert.ok(scripts.includes('en'), scripts.join(' '));
    for (const name of ['signed-in', 'areas-en', 'amplify-transport', 'dashboard-page']) assert.ok(!scripts.includes(name), `${name} loaded: ${scripts.join(' ')}`);
    assert.deepEqual(await rawKeys(), []);
  });

  test('a switch on the sign-in page loads that language only, then shows it', async () => {
    scripts = [];
    await page.getByRole('button', { name: 'IT (Italiano)' }).click();
    await page.getByTestId('login-submit').filter({ hasText: 'Accedi' }).waitFor();
    assert.equal(await lang(), 'it');
    assert.deepEqual(scripts, ['it']);
    assert.deepEqual(await rawKeys(), []);
  });

  test('signing in loads the transport, the layout and the areas strings of the language shown', async () => {
    scripts = [];
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('dashboard-welcome').waitFor();
    for (const name of ['amplify-transport', 'signed-in', 'dashboard-page']) assert.ok(scripts.includes(name), `${name} not loaded: ${scripts.join(' ')}`);
    // The user's language on the server (English) replaces the one chosen before signing in.
    await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
    assert.equal(await lang(), 'en');
    assert.ok(scripts.includes('areas-en') || scripts.includes('areas-it'), scripts.join(' '));
    assert.deepEqual(await rawKeys(), []);
  });

  test('a language chosen later comes with its areas strings, the one of the sign-in page too', async () => {
    for (const [code, heading] of [['fr', /Bon retour/], ['it', /Bentornato/]]) {
      await page.getByTestId('language-button').click();
      await page.getByTestId(`language-${code}`).click();
      await page.getByRole('heading', { name: heading }).waitFor();
      assert.equal(await lang(), code);
      assert.ok(seen.has(`areas-${code}`), `${code}: ${[...seen].join(' ')}`);
      // An area's string, not only the shared ones: the dashboard's "This month".
      await page.getByText(code === 'fr' ? 'Ce mois-ci' : 'Questo mese', { exact: true }).first().waitFor();
      assert.deepEqual(await rawKeys(), []);
    }
    // Back to English, as the server's other tests expect the admin.
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-en').click();
    await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
  });

  test('no unexpected console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
