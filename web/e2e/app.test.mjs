// End-to-end flows of issue 3 against the real `vendfleet serve` on a temporary data directory.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

const ROLE = `Refillers ${Date.now().toString(36)}`;
const MEMBER = { name: 'Rita Refiller', email: `rita.${Date.now().toString(36)}@vendfleet.test`, password: 'Rita-pass-1234' };

let server;
let browser;
let context;
let page;
const consoleLog = { errors: [], expected: [] };
const visited = new Set();

async function go(path) {
  await page.goto(`${server.baseUrl}${path}`);
}

function pathOf(url) {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function waitForPath(expected) {
  await page.waitForURL((url) => pathOf(url.toString()) === expected, { timeout: 20_000 });
}

async function signIn(email, password) {
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByTestId('login-submit').click();
}

async function signOut() {
  await page.getByTestId('account-button').click();
  await page.getByTestId('logout').click();
  await page.waitForURL((url) => url.pathname === '/auth/jwt/login');
}

async function me() {
  return page.evaluate(async () => {
    const response = await fetch('/api/users/me/', {
      headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` },
    });
    return { status: response.status, body: await response.json() };
  });
}

describe('vendfleet web', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.add(new URL(frame.url()).pathname);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a signed-out visitor of a protected page is sent to login with returnTo', async () => {
    await go('/settings/user-management');
    await waitForPath('/auth/jwt/login?returnTo=%2Fsettings%2Fuser-management');
    await page.getByRole('heading', { name: 'Sign in to Vendfleet' }).waitFor();
  });

  test('the register page shows its title', async () => {
    await go('/auth/jwt/register');
    const title = page.getByTestId('register-title');
    await title.waitFor();
    assert.equal((await title.textContent())?.trim(), 'Manage the job more effectively with Minimal');
    assert.match(await page.title(), /^Manage the job more effectively with Minimal/);
  });

  test('signing in follows returnTo', async () => {
    await go('/auth/jwt/login?returnTo=%2Fsettings%2Fuser-management');
    await signIn(ADMIN.email, ADMIN.password);
    await waitForPath('/settings/user-management');
    await page.getByRole('heading', { name: 'User management' }).waitFor();
    await page.getByTestId('users-grid').getByText(ADMIN.email).waitFor();
  });

  test('a signed-in visit to login goes on to returnTo', async () => {
    await go('/auth/jwt/login?returnTo=%2Freport%2Fencashment');
    await waitForPath('/report/encashment');
    await page.getByRole('heading', { name: 'Encashment' }).waitFor();
  });

  test('an unknown path lands on /404', async () => {
    await go('/nope');
    await waitForPath('/404');
    await page.getByTestId('not-found').waitFor();
  });

  test('the language choice is saved on the server and survives a reload', async () => {
    await go('/dashboard');
    await page.getByTestId('dashboard-welcome').waitFor();
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-fr').click();
    await page.getByText('Tableau de bord').first().waitFor();
    await page.waitForFunction(async () => {
      const response = await fetch('/api/users/me/', {
        headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` },
      });
      return (await response.json()).data.language === 'fr';
    });
    const profile = await me();
    assert.equal(profile.body.data.language, 'fr');
    // Forget the browser's own memory of the language: after reload it must come from the server.
    await page.evaluate(() => localStorage.removeItem('i18nextLng'));
    await page.reload();
    await page.getByRole('heading', { name: /Bon retour/ }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    // Back to English for the flows below.
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-en').click();
    await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
    await page.waitForFunction(async () => {
      const response = await fetch('/api/users/me/', {
        headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` },
      });
      return (await response.json()).data.language === 'en';
    });
  });

  test('a role is created, then a user with that role', async () => {
    await go('/settings/user-management');
    await page.getByTestId('new-role').click();
    await waitForPath('/settings/create-role');
    await page.locator('input[name=name]').fill(ROLE);
    await page.getByTestId('permission-tree').waitFor();
    await page.locator('input[data-key="reports.encashment.list"]').check();
    await page.locator('input[data-key="reports.refill_log"]').check();
    await page.getByTestId('role-submit').click();
    await waitForPath('/settings/user-management');
    await page.getByText('Role created successfully').waitFor();

    await page.getByTestId('tab-roles').click();
    await page.getByTestId('roles-grid').getByText(ROLE).waitFor();

    await page.getByTestId('new-user').click();
    await waitForPath('/settings/create-user');
    await page.locator('input[name=name]').fill(MEMBER.name);
    await page.locator('input[name=email]').fill(MEMBER.email);
    await page.locator('input[name=password]').fill(MEMBER.password);
    await page.getByTestId('user-role').click();
    await page.getByRole('option', { name: ROLE }).click();
    await page.getByTestId('user-submit').click();
    await waitForPath('/settings/user-management');
    await page.getByText('User created successfully').waitFor();
    const row = page.getByTestId('users-grid').getByRole('row').filter({ hasText: MEMBER.email });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', new RegExp(ROLE));

    // Edit both: the forms load the stored values and send the version back.
    await page.getByRole('button', { name: `Edit: ${MEMBER.email}` }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/settings/create-user/'));
    await page.locator('input[name=name]').waitFor();
    assert.equal(await page.locator('input[name=email]').inputValue(), MEMBER.email);
    await page.locator('input[name=phone]').fill('+39 055 123456');
    await page.getByTestId('user-submit').click();
    await waitForPath('/settings/user-management');
    await page.getByText('User updated successfully').waitFor();
    await page.getByTestId('users-grid').getByText('+39 055 123456').waitFor();

    await page.getByTestId('tab-roles').click();
    await page.getByRole('button', { name: `Edit: ${ROLE}` }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/settings/create-role/'));
    assert.equal(await page.locator('input[data-key="reports.encashment.list"]').isChecked(), true);
    assert.equal(await page.locator('input[data-key="reports.refill_log.export"]').isChecked(), true);
    assert.equal(await page.locator('input[data-key="settings.users.list"]').isChecked(), false);
    await page.getByTestId('role-submit').click();
    await waitForPath('/settings/user-management');
    await page.getByText('Role updated successfully').waitFor();
  });

  test('the new user sees only what the role grants', async () => {
    await signOut();
    await signIn(MEMBER.email, MEMBER.password);
    await waitForPath('/dashboard');
    const nav = page.locator('nav[aria-label=main]');
    await nav.getByText('Reports').click();
    await nav.getByText('Encashment').waitFor();
    await nav.getByText('Refill log').waitFor();
    assert.equal(await nav.getByText('Settings').count(), 0);
    assert.equal(await nav.getByText('Transaction log').count(), 0);
    await go('/settings/user-management');
    await page.getByTestId('forbidden').waitFor();
    await signOut();
  });

  test('a deactivated user is refused at sign-in', async () => {
    await signIn(ADMIN.email, ADMIN.password);
    await waitForPath('/dashboard');
    await go('/settings/user-management');
    const toggle = page.locator(`input[aria-label="Active: ${MEMBER.email}"]`);
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), true);
    await toggle.click();
    await page.waitForFunction(
      (label) => {
        const input = document.querySelector(`input[aria-label="${label}"]`);
        return input && !input.checked;
      },
      `Active: ${MEMBER.email}`,
    );
    await signOut();
    consoleLog.expected.push({ url: '/auth/token/', status: 401 });
    await signIn(MEMBER.email, MEMBER.password);
    const error = page.getByTestId('login-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /deactivated|Invalid e-mail or password/);
    assert.equal(new URL(page.url()).pathname, '/auth/jwt/login');
    consoleLog.expected.pop();
  });

  test('a role in use cannot be deleted; users and roles can be deleted after confirmation', async () => {
    await signIn(ADMIN.email, ADMIN.password);
    await waitForPath('/dashboard');
    await go('/settings/user-management?tab=roles');
    consoleLog.expected.push({ url: '/api/users/roles/', status: 409 });
    await page.getByRole('button', { name: `Delete: ${ROLE}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/^Deletion failed: /).waitFor();
    consoleLog.expected.pop();

    await page.getByTestId('tab-users').click();
    const row = page.getByTestId('users-grid').getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: /Delete \(1 selected\)/ }).click();
    await page.getByRole('dialog').getByText('Delete 1 user? This cannot be undone.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });

    await page.getByTestId('tab-roles').click();
    await page.getByRole('button', { name: `Delete: ${ROLE}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('roles-grid').getByText(ROLE).waitFor({ state: 'detached' });
    await signOut();
  });

  test('UI settings survive a reload', async () => {
    await signIn(ADMIN.email, ADMIN.password);
    await waitForPath('/dashboard');
    await page.getByTestId('settings-button').click();
    await page.getByTestId('setting-themeMode-dark').click();
    await page.getByTestId('setting-themeLayout-mini').click();
    await page.getByTestId('setting-preset-purple').click();
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('nav-mini').waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('settings') ?? '{}'));
    assert.equal(stored.themeMode, 'dark');
    assert.equal(stored.themeLayout, 'mini');
    assert.equal(stored.themeColorPresets, 'purple');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(20, 26, 33)');
    // Reset puts the defaults back.
    await page.getByTestId('settings-button').click();
    await page.getByTestId('settings-reset').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('nav-vertical').waitFor();
  });

  test('no console errors on any visited page', () => {
    assert.ok(visited.size >= 8, `visited only ${[...visited].join(', ')}`);
    assert.deepEqual(consoleLog.errors, []);
  });
});
