// The sales overview with the keyboard alone (issue 33): sign in, open the sales overview from the
// menu, change the period and the grouping, export the detail table as CSV — Tab, Shift+Tab, Enter,
// Space, the arrows and Escape only, never the mouse. Each control reached must show its focus,
// and Escape must close what it opened (the export menu) and give the focus back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';

const SCREEN = '/report/sales-overview';

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };

/** What has the focus: its test id, role, name and whether its focus is shown. */
function focused() {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    // A text field or select shows its focus on the outlined box around it.
    const boxed = Boolean(element.closest('.Mui-focused'));
    return {
      testId: element.getAttribute('data-testid') ?? element.closest('[data-testid]')?.getAttribute('data-testid') ?? null,
      name: element.getAttribute('name'),
      role: element.getAttribute('role') ?? element.tagName.toLowerCase(),
      text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 80),
      visible: element.matches(':focus-visible') && (outlined || boxed),
    };
  });
}

/** Presses Tab (or Shift+Tab) until `wanted` has the focus, then checks that the focus shows. */
async function tabTo(wanted, what, { back = false, most = 80 } = {}) {
  const seen = [];
  for (let step = 0; step < most; step += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused();
    if (now && wanted(now)) {
      assert.ok(now.visible, `${what} has the focus but does not show it: ${JSON.stringify(now)}`);
      return now;
    }
    seen.push(now?.testId ?? now?.text ?? now?.role);
  }
  throw new Error(`${what} never got the focus; went through ${JSON.stringify(seen)}`);
}

/** The open listbox's options, and the one the keyboard is on. */
async function activeOption() {
  return page.evaluate(() => {
    const item = document.activeElement;
    return item?.getAttribute('role') === 'option' ? item.getAttribute('data-testid') : null;
  });
}

/** With a select focused: open it with the keyboard, go to `testId` with the arrows, choose it. */
async function chooseWithKeys(testId) {
  await page.keyboard.press('Enter');
  await page.getByRole('listbox').waitFor();
  for (let step = 0; step < 30; step += 1) {
    if ((await activeOption()) === testId) {
      await page.keyboard.press('Enter');
      await page.getByRole('listbox').waitFor({ state: 'detached' });
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`option ${testId} never reached with the arrows`);
}

describe('the sales overview with the keyboard alone', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ seed: { machines: 4, days: 20 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('sign in with the keyboard', async () => {
    await page.goto(`${server.baseUrl}/auth/jwt/login`);
    await page.locator('input[name=email]').waitFor();
    await tabTo((now) => now.name === 'email', 'the e-mail field');
    await page.keyboard.type(ADMIN.email);
    await tabTo((now) => now.name === 'password', 'the password field');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  test('open the sales overview from the menu', async () => {
    await page.getByTestId('dashboard-welcome').waitFor();
    // The Reports group folds open with Enter; its Sales overview item follows it.
    await tabTo((now) => now.text.startsWith('Reports'), 'the Reports menu group');
    if ((await page.evaluate(() => document.activeElement.getAttribute('aria-expanded'))) !== 'true') await page.keyboard.press('Enter');
    await tabTo((now) => now.role === 'a' && now.text === 'Sales overview', 'the Sales overview menu item');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === SCREEN);
    await page.getByTestId('report-filters').waitFor();
  });

  test('change the period and the grouping', async () => {
    await tabTo((now) => now.testId === 'report-period' && now.role === 'combobox', 'the period');
    await chooseWithKeys('report-period-current_and_previous_month');
    await page.waitForURL((url) => url.searchParams.get('period') === 'current_and_previous_month');
    // The select keeps the focus once it has closed.
    assert.equal((await focused())?.testId, 'report-period');

    await tabTo((now) => now.testId === 'report-group-by' && now.role === 'combobox', 'the grouping');
    await chooseWithKeys('report-group-by-product');
    await page.waitForURL((url) => url.searchParams.get('group_by') === 'product' && url.searchParams.get('period') === 'current_and_previous_month');
    await page.getByTestId('sales-detail-grid').getByRole('columnheader', { name: 'Product' }).waitFor();
  });

  test('export the detail table as CSV; Escape closes the menu', async () => {
    await tabTo((now) => now.testId === 'sales-detail-export', 'the detail table’s export button');
    // Escape closes the menu and gives the focus back to the button.
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    assert.equal((await focused())?.testId, 'sales-detail-export');

    await page.keyboard.press('Space');
    await page.getByRole('menu').waitFor();
    const downloaded = page.waitForEvent('download');
    downloaded.catch(() => undefined); // awaited below
    // The first item has the focus: Export CSV.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Export CSV');
    await page.keyboard.press('Enter');
    const download = await downloaded;
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
    assert.match(csv.split('\n')[0], /^"?Product"?,/);
    assert.ok(csv.trim().split('\n').length > 2, 'rows of products');
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
