// The account page against the real `vendfleet serve` (issue 29): reached from the user menu, it
// shows the role and machine access; a wrong current password is refused on its field; the
// password is changed, the user signs out and back in with the new one (the old one refused);
// "Need help?" opens a dialog naming the screen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

const NEW_PASSWORD = 'Changed-e2e-pass-2';

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };

async function signIn(email, password) {
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByTestId('login-submit').click();
}

describe('vendfleet account page', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=%2Fdashboard`);
    await signIn(ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('"Need help?" opens a dialog for the current screen that leads to the account page', async () => {
    await page.getByTestId('help-button').click();
    const dialog = page.getByTestId('help-dialog');
    await dialog.getByText('You are on: Dashboard.').waitFor();
    await dialog.getByRole('button', { name: 'Open my account' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await page.getByTestId('help-dialog').waitFor({ state: 'detached' });
  });

  test('the user menu opens the account page with the role and machine access', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.getByTestId('account-button').click();
    await page.getByTestId('account-link').click();
    await page.waitForURL((url) => url.pathname === '/account');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    assert.match(await page.getByTestId('account-machines').textContent(), /Machine access: All machines/);
    assert.match(await page.getByTestId('account-role').textContent(), /^Role: \S/);
  });

  test('a wrong current password is refused on its field', async () => {
    consoleLog.expected.push({ url: '/api/users/me/password/', status: 400 });
    const form = page.getByTestId('account-password-form');
    await form.locator('input[name=current_password]').fill('not-the-password');
    await form.locator('input[name=new_password]').fill(NEW_PASSWORD);
    await form.locator('input[name=confirm_password]').fill(NEW_PASSWORD);
    const reply = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/users/me/password/');
    await page.getByTestId('account-password-submit').click();
    assert.equal((await reply).status(), 400);
    await form.locator('.Mui-error').first().waitFor();
    assert.ok(await form.locator('input[name=current_password][aria-invalid=true]').count());
  });

  test('the password is changed; sign out and back in with the new one', async () => {
    const form = page.getByTestId('account-password-form');
    await form.locator('input[name=current_password]').fill(ADMIN.password);
    const reply = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/users/me/password/');
    await page.getByTestId('account-password-submit').click();
    const answered = await reply;
    assert.equal(answered.status(), 200, await answered.text());
    await page.getByText('Password changed.', { exact: false }).waitFor();
    // Still signed in after the change (the page goes on with the new tokens).
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.getByTestId('dashboard-welcome').waitFor();

    await page.getByTestId('account-button').click();
    await page.getByTestId('logout').click();
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=%2Faccount`);
    consoleLog.expected.push({ url: '/auth/token/', status: 400 }, { url: '/auth/token/', status: 401 });
    const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/token/');
    await signIn(ADMIN.email, ADMIN.password);
    assert.ok((await refused).status() >= 400, 'the old password no longer signs in');
    await signIn(ADMIN.email, NEW_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/account');
    await page.getByTestId('account-page').waitFor();
  });

  test('no unexpected console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
