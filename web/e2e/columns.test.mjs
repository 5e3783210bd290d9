// Issue 9: the list columns fit from 1280 to 1920 px wide. At each width the machines and users
// lists show every column header in full and the row actions inside the grid's visible area.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const tag = Date.now().toString(36);
const WIDTHS = [1280, 1440, 1920];
const LISTS = [
  { path: '/settings/machine-management', grid: 'machines-grid', row: `Lobby snack machine ${tag}` },
  { path: '/settings/user-management', grid: 'users-grid', row: `rosa.refiller.${tag}@vendfleet.test` },
];

let server;
let browser;
let context;
let page;
const consoleLog = { errors: [], expected: [] };

/** A call with the signed-in user's token, straight from the page. */
function call(method, path, body) {
  return apiCall(page, method, path, body);
}

/** What is cut in a grid: header titles wider than their box, headers and action buttons outside the visible area. */
function measure(gridTestId) {
  const grid = document.querySelector(`[data-testid="${gridTestId}"] .MuiDataGrid-main`);
  if (!grid) return { problems: [`no grid ${gridTestId}`], headers: 0, buttons: 0 };
  const visible = grid.getBoundingClientRect();
  const problems = [];
  const headers = [...grid.querySelectorAll('.MuiDataGrid-columnHeader')];
  for (const header of headers) {
    const field = header.getAttribute('data-field');
    const box = header.getBoundingClientRect();
    if (box.left < visible.left - 0.5 || box.right > visible.right + 0.5) {
      problems.push(`header ${field} is outside the visible area (${box.left}-${box.right} of ${visible.left}-${visible.right})`);
    }
    const title = header.querySelector('.MuiDataGrid-columnHeaderTitle');
    if (title && title.scrollWidth > title.clientWidth) {
      problems.push(`header ${field} "${title.textContent}" is truncated (${title.scrollWidth} > ${title.clientWidth})`);
    }
  }
  const buttons = [...grid.querySelectorAll('.MuiDataGrid-cell[data-field="actions"] button')];
  for (const button of buttons) {
    const box = button.getBoundingClientRect();
    if (box.left < visible.left - 0.5 || box.right > visible.right + 0.5 || box.width === 0) {
      problems.push(`action "${button.getAttribute('aria-label')}" is cut (${box.left}-${box.right} of ${visible.left}-${visible.right})`);
    }
  }
  return { problems, headers: headers.length, buttons: buttons.length };
}

describe('vendfleet list columns at desktop widths', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'Europe/Rome' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('dashboard-welcome').waitFor();

    // A machine with every column filled, and a user with a long e-mail address.
    const client = await call('POST', '/api/clients/', { name: `Bianchi Bar ${tag}` });
    assert.equal(client.status, 201, JSON.stringify(client.body));
    const location = await call('POST', '/api/locations/', { name: `Piazza del Duomo ${tag}`, client_id: client.body.data.id, time_zone: 'Europe/Rome' });
    assert.equal(location.status, 201, JSON.stringify(location.body));
    const model = await call('POST', '/api/machines/models/', { name: `Coffeemaster 3000 ${tag}`, type: 'Snack', manufacturer: 'Necta' });
    assert.equal(model.status, 201, JSON.stringify(model.body));
    const machineTag = await call('POST', '/api/machines/tags/', { name: `Lobby ${tag}` });
    assert.equal(machineTag.status, 201, JSON.stringify(machineTag.body));
    const machine = await call('POST', '/api/machines/', {
      name: LISTS[0].row,
      serial: `SN-2024-000123-${tag}`,
      location_id: location.body.data.id,
      model_id: model.body.data.id,
      tag_ids: [machineTag.body.data.id],
    });
    assert.equal(machine.status, 201, JSON.stringify(machine.body));
    const user = await call('POST', '/api/users/', {
      name: `Rosa Refiller ${tag}`,
      email: LISTS[1].row,
      password: 'Rosa-pass-1234',
      phone: '+39 055 123 4567',
      position: 'Refiller',
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of WIDTHS) {
    for (const list of LISTS) {
      test(`${list.path} at ${width} px: no header or action is cut`, async () => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.baseUrl}${list.path}`);
        await page.getByTestId(list.grid).getByRole('row').filter({ hasText: list.row }).waitFor();
        // Column widths settle after the grid has measured itself.
        await page.waitForFunction((grid) => document.querySelector(`[data-testid="${grid}"] .MuiDataGrid-columnHeader`) !== null, list.grid);
        await page.waitForTimeout(300);
        const found = await page.evaluate(measure, list.grid);
        assert.ok(found.headers >= 6, `only ${found.headers} headers`);
        assert.ok(found.buttons >= 2, `only ${found.buttons} action buttons`);
        assert.deepEqual(found.problems, []);
      });
    }
  }

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
