// The dashboard at a fixed hour (issue 29) against the real `vendfleet serve`: the server's clock
// starts on Thursday 26 November 2026 at 09:00 in Paris (the operator's zone) and runs on, over a
// seeded demo fleet (4 machines, 20 days of sales ending then). Today's label says "until 9:0x",
// and each of today's figures and its two comparisons (yesterday and Thursday 19 November, both
// until the same hour) are those of `GET /api/dashboard/`; the trend chart draws 30 days. The
// browser sits in Los Angeles: nothing on the screen may follow its zone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, startServer } from './server.mjs';
import { launchBrowser, signIn, watchConsole } from './browser.mjs';

const CLOCK_START = '2026-11-26T08:00:00Z';
const KPIS = ['sales_minor', 'quantity', 'cash_minor', 'cashless_minor'];

let server;
let browser;
let page;
/** The reply the page drew from. */
let shown;
const consoleLog = { errors: [], expected: [] };

/** A call with the signed-in user's token, straight from the page. */
async function call(path) {
  return page.evaluate(async (path) => {
    const response = await fetch(path, { headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` } });
    return { status: response.status, body: await response.json() };
  }, path);
}

const text = async (testId) => (await page.getByTestId(testId).textContent()).replace(/\s/g, ' ');
const figure = (key, value, language) =>
  key === 'quantity' ? new Intl.NumberFormat(language).format(value) : new Intl.NumberFormat(language, { style: 'currency', currency: 'EUR' }).format(value / 100);
const change = (current, previous, language) =>
  previous === 0 ? '—' : new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format((current - previous) / Math.abs(previous));
const spaced = (value) => value.replace(/\s/g, ' ');

/** Opens the dashboard and returns the reply it draws from. */
async function openDashboard() {
  const reply = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/dashboard/' && response.request().method() === 'GET');
  await page.goto(`${server.baseUrl}/dashboard`);
  const data = (await (await reply).json()).data;
  await page.getByTestId('dashboard-today-sales_minor-value').waitFor();
  return data;
}

describe('vendfleet dashboard at 09:00', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ env: { VENDFLEET_CLOCK_START: CLOCK_START, VENDFLEET_TIME_ZONE: 'Europe/Paris' }, seed: { machines: 4, days: 20 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'America/Los_Angeles', reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await signIn(page, server.baseUrl, ADMIN);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('today is compared with the same hours of yesterday and of the same weekday a week before', async () => {
    shown = await openDashboard();
    const { today } = shown;
    assert.equal(today.date, '2026-11-26');
    assert.equal(today.yesterday.date, '2026-11-25');
    assert.equal(today.week_before.date, '2026-11-19');
    assert.match(today.until, /^09:0\d:\d\d$/);
    assert.ok(today.figures.sales_minor > 0, 'the seed sold something this morning');

    const until = /^Today until 9:0\d AM$/;
    assert.match(await text('dashboard-today-title'), until);
    const clock = (await text('dashboard-today-title')).replace('Today until ', '');
    assert.equal(await text('dashboard-today-span'), `Nov 26, 2026, from midnight to ${clock}, compared with the same hours of yesterday (Wed, Nov 25) and of Thu, Nov 19`);
    for (const key of KPIS) {
      assert.equal(await text(`dashboard-today-${key}-value`), spaced(figure(key, today.figures[key], 'en')), key);
      for (const [part, label] of [
        ['yesterday', `yesterday until ${clock}`],
        ['week_before', `Thu, Nov 19 until ${clock}`],
      ]) {
        assert.equal(await text(`dashboard-today-${key}-${part}-previous`), `vs ${label}: ${spaced(figure(key, today[part][key], 'en'))}`, `${key} ${part}`);
        assert.equal(await text(`dashboard-today-${key}-${part}-change`), change(today.figures[key], today[part][key], 'en'), `${key} ${part} change`);
      }
    }

    // The API asked again with the page's token: the same day, hour and figures.
    const direct = await call('/api/dashboard/');
    assert.equal(direct.status, 200);
    assert.equal(direct.body.data.today.date, today.date);
    assert.match(direct.body.data.today.until, /^09:0\d:\d\d$/);
    assert.deepEqual(direct.body.data.today.figures, today.figures, 'today');
    // The server's clock runs on from 09:00: asked later, the compared hours may have grown by a
    // sale or two; asked within the same second, they are the same.
    for (const part of ['yesterday', 'week_before']) {
      if (direct.body.data.today.until === today.until) assert.deepEqual(direct.body.data.today[part], today[part], part);
      else assert.ok(direct.body.data.today[part].sales_minor >= today[part].sales_minor, part);
    }
  });

  test('the trend charts draw the last 30 days and this month against the month before', async () => {
    const { last_days: days, month, previous_month: previous } = shown.trend;
    assert.equal(days.length, 30);
    assert.equal(days[0].date, '2026-10-28');
    assert.equal(days.at(-1).date, '2026-11-26');
    assert.deepEqual(month.map((day) => day.date.slice(8)), previous.map((day) => day.date.slice(8)));
    assert.equal(month.length, 26);

    const chart = page.getByTestId('dashboard-trend-days');
    // A bar a day, today's (a sale this morning) drawn; a day without sales has a bar of no height.
    await chart.locator('.MuiBarChart-element').last().waitFor();
    assert.equal(await chart.getAttribute('data-days'), '30');
    assert.equal(await chart.locator('.MuiBarChart-element').count(), 30);
    const heights = await chart.locator('.MuiBarChart-element').evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('height'))));
    assert.deepEqual(
      heights.map((height) => height > 0),
      days.map((day) => day.sales_minor > 0),
    );
    const total = days.reduce((sum, day) => sum + day.sales_minor, 0);
    const summary = spaced(await page.getByTestId('dashboard-trend-days-summary').getAttribute('aria-label'));
    assert.ok(summary.startsWith(`Bar chart of the sales of each of the 30 days, Oct 28 – Nov 26, 2026: ${spaced(figure('sales_minor', total, 'en'))} in all`), summary);
    assert.match(await text('dashboard-trend-days'), /^Last 30 days/);

    const lines = page.getByTestId('dashboard-trend-month');
    await lines.locator('.MuiLineChart-root, svg').first().waitFor();
    await lines.getByText('November 2026').waitFor();
    await lines.getByText('October 2026').waitFor();
    const monthSummary = spaced(await page.getByTestId('dashboard-trend-month-summary').getAttribute('aria-label'));
    const sum = (list) => list.reduce((all, day) => all + day.sales_minor, 0);
    assert.ok(
      monthSummary.includes(`${spaced(figure('sales_minor', sum(month), 'en'))} in November 2026 up to day 26, against ${spaced(figure('sales_minor', sum(previous), 'en'))} in the same days of October 2026`),
      monthSummary,
    );
  });

  test('the attention list names each machine with its location, as the API does', async () => {
    const expected = shown.attention.slice(0, 10);
    if (expected.length === 0) {
      await page.getByTestId('dashboard-attention-empty').waitFor();
      return;
    }
    await page.getByTestId('dashboard-attention-machine').first().waitFor();
    assert.deepEqual(await page.getByTestId('dashboard-attention-name').allTextContents(), expected.map((row) => row.machine_name));
    assert.deepEqual(
      await page.getByTestId('dashboard-attention-location').allTextContents(),
      expected.map((row) => row.location_name || 'No location'),
    );
    const first = page.getByTestId('dashboard-attention-machine').first().getByRole('link');
    assert.equal(await first.getAttribute('href'), `/settings/machine-management/${encodeURIComponent(expected[0].machine_id)}/overview`);
  });

  test('in French the hour is written 09:0x', async () => {
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    const switched = await page.evaluate(async () => {
      const response = await fetch('/api/settings/languges/switch/', {
        method: 'POST',
        headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ language: 'fr' }),
      });
      return response.status;
    });
    assert.equal(switched, 200);
    const { today } = await openDashboard();
    await page.getByTestId('dashboard-today-title').filter({ hasText: 'Aujourd’hui jusqu’à' }).waitFor();
    assert.match(await text('dashboard-today-title'), /^Aujourd’hui jusqu’à 09:0\d$/);
    const clock = (await text('dashboard-today-title')).replace('Aujourd’hui jusqu’à ', '');
    assert.equal(await text('dashboard-today-sales_minor-value'), spaced(figure('sales_minor', today.figures.sales_minor, 'fr')));
    assert.equal(
      await text('dashboard-today-sales_minor-week_before-previous'),
      `vs jeu. 19 nov. jusqu’à ${clock} : ${spaced(figure('sales_minor', today.week_before.sales_minor, 'fr'))}`,
    );
    assert.equal(await text('dashboard-today-sales_minor-yesterday-change'), spaced(change(today.figures.sales_minor, today.yesterday.sales_minor, 'fr')));
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
