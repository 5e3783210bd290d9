// The app with the keyboard alone (issue 33), Tab, Shift+Tab, Enter, Space, the arrows, + and -
// and Escape only, never the mouse. Each control reached must show its focus, and Escape must close
// what it opened and give the focus back to what opened it.
// - The sales overview: sign in, open the sales overview from the menu, change the period and the
//   grouping (selects), export the detail table as CSV (a menu).
// - Route planning: the header's language menu, the planning settings dialog (the focus stays in
//   it), the visit date, the ranked machines' grid and the map (Leaflet's keys, the machines).
// - A report's custom period: chosen in the period select, its days moved on the date fields.
// - The settings drawer (the focus stays inside, a colour chosen, Escape gives the focus back), a
//   list row's delete confirmation (the same, nothing deleted) and the location form's map (moved with the arrows, Tab goes on to the button that picks its centre).
// One server (its clock on 23 November 2026) and one browser page for all, signed in by the first.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const SCREEN = '/report/sales-overview';
/** The server's clock (Monday 23 November 2026): the report's periods, and so a custom period's first dates, are known. */
const CLOCK_START = '2026-11-23T09:00:00Z';
const PLANNING = '/planning/route-planning';

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };

/** What has the focus: its test id, role, name, grid cell, and whether its focus is shown. */
function focused() {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    // An invisible input (a checkbox's) shows nothing of its own outline.
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && style.opacity !== '0';
    // A text field or select shows its focus on the outlined box around it, a checkbox on its button.
    const boxed = Boolean(element.closest('.Mui-focused, .Mui-focusVisible'));
    const cell = element.closest('[role="gridcell"], [role="columnheader"]');
    return {
      testId: element.getAttribute('data-testid') ?? element.closest('[data-testid]')?.getAttribute('data-testid') ?? null,
      name: element.getAttribute('name'),
      role: element.getAttribute('role') ?? element.tagName.toLowerCase(),
      text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 80),
      // A date or time field's own calendar or clock button (inside the field, where the page
      // cannot see it: the field is focused but not :focus) shows its focus on the field's box.
      visible: (element.matches(':focus-visible') || (element.matches('input[type="date"], input[type="time"]') && !element.matches(':focus'))) && (outlined || boxed),
      inDialog: Boolean(element.closest('[role="dialog"]')),
      // A drawer or a dialog (MUI's modals: a temporary drawer has no role of its own).
      inModal: Boolean(element.closest('.MuiModal-root')),
      inMap: Boolean(element.closest('.leaflet-container')),
      cell: cell ? { row: Number(cell.closest('[role="row"]')?.getAttribute('aria-rowindex')), column: Number(cell.getAttribute('aria-colindex')), field: cell.getAttribute('data-field') } : null,
    };
  });
}

/** Presses `key`, then checks that the focus shows on what has it, and returns that. */
async function press(key) {
  await page.keyboard.press(key);
  const now = await focused();
  assert.ok(now?.visible, `after ${key} the focus does not show: ${JSON.stringify(now)}`);
  return now;
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

/**
 * Presses Tab `steps` times from inside a dialog or drawer: each control reached must still be
 * inside it (`inside`) and show its focus. Returns what was reached, what it is named by first.
 */
async function tabAround(steps, inside, what) {
  const seen = [];
  for (let step = 0; step < steps; step += 1) {
    const now = await press('Tab');
    assert.ok(inside(now), `Tab left ${what} after ${JSON.stringify(seen)}: ${JSON.stringify(now)}`);
    seen.push(now.testId ?? now.text);
  }
  return seen;
}

/** Escape closes what `opened` finds, and the focus is back, shown, on what `wanted` picks out. */
async function escapeBack(opened, wanted, what) {
  await page.keyboard.press('Escape');
  await opened.waitFor({ state: 'detached' });
  const back = await focused();
  assert.ok(back && wanted(back), `the focus is back on ${what}: ${JSON.stringify(back)}`);
  assert.ok(back.visible, `the focus shows on ${what} again`);
  return back;
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

before(async () => {
  server = await startServer({ env: { VENDFLEET_CLOCK_START: CLOCK_START }, seed: { machines: 4, days: 20 } });
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

describe('the sales overview with the keyboard alone', { concurrency: false }, () => {
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
});

/**
 * The Leaflet map's view once it has stopped moving, when `check` holds for it: its zoom (its
 * proxy's scale, doubling a step) and how far it has been moved (the map pane's offset). Leaflet
 * drops a key pressed while the map still moves, so each key waits for the one before.
 */
async function mapView(what, check = () => true) {
  const deadline = Date.now() + 10_000;
  let view = null;
  while (Date.now() < deadline) {
    view = await page.evaluate(() => {
      if (document.querySelector('.leaflet-container .leaflet-zoom-anim, .leaflet-container .leaflet-pan-anim')) return null;
      const scale = /scale\(([\d.]+)\)/.exec(document.querySelector('.leaflet-proxy').style.transform);
      const offset = /translate3d\((-?[\d.]+)px, (-?[\d.]+)px/.exec(document.querySelector('.leaflet-map-pane').style.transform);
      return { scale: Number(scale[1]), x: Number(offset[1]), y: Number(offset[2]) };
    });
    if (view && check(view)) return view;
    await page.waitForTimeout(50);
  }
  throw new Error(`the map never showed ${what}: ${JSON.stringify(view)}`);
}

/** Waits until the ranked machines' grid has its rows and nothing on the screen is loading. */
async function planningSettled() {
  await page.getByTestId('ranked-grid').locator('[role="row"][aria-rowindex="2"]').waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .MuiLinearProgress-root, .MuiSkeleton-root'));
}

describe('route planning with the keyboard alone', { concurrency: false }, () => {
  const open = async () => {
    await page.goto(`${server.baseUrl}${PLANNING}`);
    await page.getByTestId('planning-map').waitFor();
    await planningSettled();
  };
  // Signed in by the first part; the screen opened by its address (the menu is the first part's).
  before(open);
  // A test that failed with a menu or dialog left open does not fail the next ones with it.
  afterEach(async () => {
    if (await page.locator('.MuiModal-root').count()) await open();
  });

  test('the language menu: Enter opens it on the language in use, the arrows move, Escape closes it', async () => {
    const button = await tabTo((now) => now.testId === 'language-button', 'the language button');
    assert.match(button.text, /^Language: EN/);
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    assert.equal((await focused())?.testId, 'language-en');
    assert.equal((await press('ArrowDown')).testId, 'language-fr');
    assert.equal((await press('ArrowUp')).testId, 'language-en');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    assert.equal((await focused())?.testId, 'language-button');
    assert.equal(await page.getByTestId('language-button').getAttribute('aria-expanded'), 'false');
  });

  test('the settings dialog: Enter opens it, the focus stays inside, Escape closes it and gives the focus back', async () => {
    await tabTo((now) => now.testId === 'planning-settings', 'the planning settings button');
    await page.keyboard.press('Enter');
    await page.getByTestId('planning-settings-submit').waitFor();
    assert.ok((await focused())?.inDialog, 'the focus is in the dialog once it opens');
    // Forwards past its last control and round again: the focus never leaves it.
    const seen = await tabAround(24, (now) => now.inDialog, 'the dialog');
    const submit = seen.indexOf('planning-settings-submit');
    assert.ok(submit >= 0 && seen[submit + 1] === seen[0], `Tab goes round inside the dialog: ${JSON.stringify(seen)}`);
    // And backwards from its first control to its last.
    await tabTo((now) => (now.testId ?? now.text) === seen[0], 'the first field', { back: true, most: 30 });
    assert.equal((await press('Shift+Tab')).testId, 'planning-settings-submit');
    await escapeBack(page.getByRole('dialog'), (now) => now.testId === 'planning-settings', 'the settings button');
  });

  // The app's date fields are the browser's own (<input type="date">): the keyboard picks a day on
  // the field's segments; the calendar Chromium opens from it (Alt+Down) is outside the page, out
  // of a headless test's reach.
  test('the visit date: reached with Tab, a day picked with the arrows, Escape leaves it', async () => {
    await tabTo((now) => now.testId === 'planning-visit-date', 'the visit date');
    const first = await page.getByTestId('planning-visit-date').inputValue();
    // The segments are month, day, year (en-US): to the day, then a day on (or back, late in a
    // month, so that the day exists).
    await page.keyboard.press('ArrowRight');
    const day = Number(first.slice(8, 10));
    await page.keyboard.press(day <= 27 ? 'ArrowUp' : 'ArrowDown');
    const picked = new Date(`${first}T12:00:00Z`);
    picked.setUTCDate(day + (day <= 27 ? 1 : -1));
    const wanted = picked.toISOString().slice(0, 10);
    await page.waitForURL((url) => url.searchParams.get('visit_date') === wanted);
    // The field shows the day once the screen has read it from its address.
    await page.waitForFunction((wanted) => document.querySelector('[data-testid="planning-visit-date"]').value === wanted, wanted);
    await page.keyboard.press('Escape');
    const now = await focused();
    assert.equal(now?.testId, 'planning-visit-date');
    assert.equal(await page.getByTestId('planning-visit-date').inputValue(), wanted);
    await planningSettled();
  });

  test('the ranked machines: a cell reached with Tab, the arrows move between cells', async () => {
    const header = await tabTo((now) => now.testId === 'ranked-grid' && now.cell !== null, 'a cell of the ranked machines');
    assert.deepEqual(header.cell, { row: 1, column: 1, field: '__check__' });
    assert.deepEqual((await press('ArrowDown')).cell, { row: 2, column: 1, field: '__check__' });
    assert.deepEqual((await press('ArrowRight')).cell, { row: 2, column: 2, field: 'name' });
    assert.deepEqual((await press('ArrowDown')).cell, { row: 3, column: 2, field: 'name' });
    assert.deepEqual((await press('ArrowRight')).cell, { row: 3, column: 3, field: 'signals' });
    assert.deepEqual((await press('ArrowUp')).cell, { row: 2, column: 3, field: 'signals' });
    assert.deepEqual((await press('ArrowLeft')).cell, { row: 2, column: 2, field: 'name' });
  });

  test('the map: reached with Tab, + and - zoom, the arrows move it, each machine a named button', async () => {
    const map = await tabTo((now) => now.role === 'region' && now.text === 'Map of the machines', 'the map', { back: true });
    assert.equal(map.testId, 'planning-map');
    const start = await mapView('its first view');
    await press('+');
    await mapView('a step closer', (view) => view.scale === start.scale * 2);
    await press('-');
    await mapView('a step back', (view) => view.scale === start.scale);
    // The arrows move the view that way: the map's pane the other.
    await press('ArrowRight');
    const right = await mapView('moved right', (view) => view.x < start.x && view.y === start.y);
    await press('ArrowDown');
    await mapView('moved down', (view) => view.x === right.x && view.y < right.y);

    // Machines that overlap at this zoom make a cluster (issue 29): Enter zooms in on it and gives
    // the focus back to the map, from where Tab reaches its machines.
    let marker = await press('Tab');
    if (/ machines here, /.test(marker.text ?? '')) {
      const before = await mapView('the view before the cluster opens');
      await page.keyboard.press('Enter');
      await mapView('the cluster zoomed in on', (view) => view.scale > before.scale);
      assert.equal((await focused())?.role, 'region');
      marker = await press('Tab');
    }
    // The machines: buttons named as their tooltips, which show on focus; Enter opens one.
    assert.equal(marker.role, 'button');
    assert.match(marker.text, /^\S+ · (Visit now|Visit soon|Later)/);
    // (A cluster opened above may leave its emptied tooltip behind while it fades out.)
    assert.equal((await page.locator('.leaflet-tooltip').filter({ hasText: /\S/ }).textContent())?.trim(), marker.text);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    assert.ok((await drawer.textContent()).includes(marker.text.split(' · ')[0]), 'the drawer is the machine’s');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    const back = await focused();
    assert.equal(back?.text, marker.text, 'the focus is back on the machine');
  });

  test('the map is no trap: Tab goes through its machines and on out of it, Shift+Tab out before it', async () => {
    await tabTo((now) => now.role === 'region' && now.text === 'Map of the machines', 'the map', { back: true });
    // Forwards: its machines and clusters (each showing its focus), its controls, then what follows it.
    const inside = [];
    let now = await press('Tab');
    while (now.inMap && inside.length < 40) {
      inside.push(now.text);
      now = await press('Tab');
    }
    assert.ok(!now.inMap, `Tab never left the map: ${JSON.stringify(inside)}`);
    assert.ok(inside.some((text) => /^\S+ · (Visit now|Visit soon|Later)| machines here, /.test(text)), `Tab went through the machines: ${JSON.stringify(inside)}`);
    // Backwards: from the map itself to what comes before it.
    await tabTo((now) => now.role === 'region' && now.text === 'Map of the machines', 'the map again', { back: true });
    assert.equal((await press('Shift+Tab')).inMap, false);
  });
});

describe('a report’s own period with the keyboard alone', { concurrency: false }, () => {
  /** Presses `key` on a date field's segment and waits until the address holds the day it made. */
  async function moveDay(key, name, wanted) {
    await page.keyboard.press(key);
    await page.waitForURL((url) => url.searchParams.get(name) === wanted);
    // The field shows the day once the screen has read it from its address (the next key builds on it).
    await page.waitForFunction(({ name, wanted }) => document.querySelector(`[data-testid="report-${name}"]`).value === wanted, { name, wanted });
  }

  test('a custom period: chosen with the arrows, its first and last day moved on their fields, the report asked for them', async () => {
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.getByTestId('report-filters').waitFor();
    await tabTo((now) => now.testId === 'report-period' && now.role === 'combobox', 'the period');
    await chooseWithKeys('report-period-custom');
    await page.waitForURL((url) => url.searchParams.get('period') === 'custom');
    // The custom period starts from the month so far (the server's clock: 23 November 2026).
    assert.equal(await page.getByTestId('report-date_from').inputValue(), '2026-11-01');
    assert.equal(await page.getByTestId('report-date_to').inputValue(), '2026-11-23');

    // The segments are month, day, year (en-US): to the day, then four days on and three back.
    await tabTo((now) => now.testId === 'report-date_from', 'the first day');
    await page.keyboard.press('ArrowRight');
    for (const day of ['02', '03', '04', '05']) await moveDay('ArrowUp', 'date_from', `2026-11-${day}`);
    await tabTo((now) => now.testId === 'report-date_to', 'the last day');
    await page.keyboard.press('ArrowRight');
    const asked = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/api/sales-journal/detail-table/' && url.searchParams.get('date_from') === '2026-11-05' && url.searchParams.get('date_to') === '2026-11-20';
    });
    asked.catch(() => undefined); // awaited below
    for (const day of ['22', '21', '20']) await moveDay('ArrowDown', 'date_to', `2026-11-${day}`);
    await asked;
    // Escape leaves the field as it is, with the focus.
    await page.keyboard.press('Escape');
    assert.equal((await focused())?.testId, 'report-date_to');
    assert.equal(await page.getByTestId('report-date_to').inputValue(), '2026-11-20');
  });
});

describe('the settings drawer, a confirmation and the location map with the keyboard alone', { concurrency: false }, () => {
  test('the settings drawer: Enter opens it, the focus stays inside, Space picks a colour, Escape closes it and gives the focus back', async () => {
    await page.goto(`${server.baseUrl}${SCREEN}`);
    await page.getByTestId('report-filters').waitFor();
    await tabTo((now) => now.testId === 'settings-button', 'the settings button');
    await page.keyboard.press('Enter');
    const drawer = page.locator('.MuiDrawer-paper');
    await drawer.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('.MuiDrawer-paper'));
    // Forwards round its controls twice: the focus never leaves it.
    const seen = await tabAround(32, (now) => now.inModal, 'the drawer');
    assert.ok(seen.includes('setting-preset-blue') && seen.includes('setting-themeMode-dark'), JSON.stringify(seen));
    // A colour preset (a radio) chosen with Space.
    await tabTo((now) => now.testId === 'setting-preset-blue', 'the blue swatch');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid="setting-preset-blue"]').getAttribute('aria-checked') === 'true');
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('settings')).themeColorPresets), 'blue');
    await escapeBack(drawer, (now) => now.testId === 'settings-button', 'the settings button');
  });

  test('a row’s delete confirmation: Tab reaches the row’s button, Enter opens the dialog, the focus stays inside, Escape closes it and gives the focus back', async () => {
    await page.goto(`${server.baseUrl}/settings/location-management`);
    await page.getByTestId('locations-grid').locator('[role="row"][aria-rowindex="2"]').waitFor();
    const button = await tabTo((now) => now.role === 'button' && now.text.startsWith('Delete: '), 'a row’s delete button', { most: 120 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('heading').count(), 1);
    await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]'));
    const seen = await tabAround(6, (now) => now.inDialog, 'the dialog');
    assert.ok(seen.includes('confirm-dialog-submit') && seen.includes('Cancel'), JSON.stringify(seen));
    await escapeBack(dialog, (now) => now.text === button.text, 'the row’s delete button');
    // Nothing was deleted.
    await page.getByRole('button', { name: button.text }).waitFor();
  });

  test('the location map: reached with Tab, moved with the arrows, Tab goes on to the button under it, which puts the location at its centre', async () => {
    const locations = await apiCall(page, 'GET', '/api/locations/?page_size=1');
    const location = locations.body.data[0];
    await page.goto(`${server.baseUrl}/settings/create-location/${encodeURIComponent(location.id)}`);
    await page.getByTestId('location-map').locator('.leaflet-container').waitFor();
    const latitude = page.locator('input[name=latitude]');
    const longitude = page.locator('input[name=longitude]');
    assert.equal(Number(await longitude.inputValue()), location.longitude);
    const map = await tabTo((now) => now.role === 'region' && now.testId === 'location-map', 'the location map');
    assert.equal(map.text, 'Map of the location');
    // The map shows the location at its centre; the right arrow moves the view east.
    const start = await mapView('its first view');
    await press('ArrowRight');
    await mapView('moved east', (view) => view.x < start.x && view.y === start.y);
    // No trap: Tab goes on, past the map's own controls, to the button under it.
    await tabTo((now) => now.testId === 'location-map-centre', 'the button under the map', { most: 10 });
    await page.keyboard.press('Enter');
    await page.waitForFunction((before) => Number(document.querySelector('input[name=longitude]').value) > before, location.longitude);
    const picked = [Number(await latitude.inputValue()), Number(await longitude.inputValue())];
    // East of the location, at the same latitude, and close (the map shows streets apart).
    assert.ok(Math.abs(picked[0] - location.latitude) < 0.0005 && picked[1] - location.longitude < 0.05, JSON.stringify({ picked, location }));
  });
});

test('no console errors', () => {
  assert.deepEqual(consoleLog.errors, []);
});
