// End-to-end flow of issue 13 against the real `vendfleet serve` with a seeded demo fleet (4
// machines, 20 days ending now): a report template made on the form (with its live preview), run
// from the templates list, followed until its progress reaches done, its CSV downloaded and read
// back; then a scheduled query (its address's domain allowed by the operator's policy) with its
// next runs in the chosen zone, sent now, and the e-mail the embedded server writes as a .eml file
// under DATA/outbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN, startServer } from './server.mjs';
import { parseCsv } from './csv.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall } from './signed-in.mjs';

const tag = Date.now().toString(36);
const TEMPLATE = `Cash by bag ${tag}`;
const QUERY = `Monday cash ${tag}`;
const RECIPIENT = `ops.${tag}@example.test`;
const ZONE = 'Europe/Rome';

let server;
let browser;
let page;
/** The server's data directory (DATA): its e-mails are written under DATA/outbox. */
let dataDir;
const consoleLog = { errors: [], expected: [] };

/** What the first test leaves for the next: the template, and the preview of its definition. */
const made = { template: null, preview: null, columns: [] };

/** A call with the signed-in user's token, straight from the page. */
function call(method, path, body) {
  return apiCall(page, method, path, body);
}

const pathOf = (response) => new URL(response.url()).pathname;
const isCall = (method, path) => (response) => response.request().method() === method && pathOf(response) === path;

/** Every file under a directory (none when it does not exist yet). */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** Starts the server and notes its data directory (its e-mails are under DATA/outbox). */
async function startWithKnownData(options) {
  const started = await startServer(options);
  dataDir = started.data;
  assert.ok(existsSync(join(dataDir, 'vendfleet.db')), `no database in ${dataDir}`);
  return started;
}

/** The day of the week and the time of an instant in a zone, e.g. `Mon 06:45`. */
function localWeekdayTime(instant, timeZone) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(instant));
  const part = (type) => parts.find((item) => item.type === type)?.value;
  return `${part('weekday')} ${part('hour')}:${part('minute')}`;
}

describe('report generator and query scheduler', { concurrency: false }, () => {
  before(async () => {
    server = await startWithKnownData({ seed: { machines: 4, days: 20 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await page.goto(`${server.baseUrl}/auth/jwt/login?returnTo=${encodeURIComponent('/report/report-generator')}`);
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/report/report-generator');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a template: the encashment’s filters, CSV, two columns, a live preview, saved and listed', async () => {
    await page.getByTestId('new-report').click();
    await page.waitForURL((url) => url.pathname === '/report/create-report');
    await page.getByTestId('report-name').fill(TEMPLATE);

    const columnsReply = page.waitForResponse((response) => isCall('GET', '/api/reports/generator/columns/')(response) && new URL(response.url()).searchParams.get('module') === 'encashment');
    columnsReply.catch(() => undefined);
    await page.getByTestId('report-module').click();
    await page.getByTestId('report-module-encashment').click();
    // The API's options are {id, name}: the column's key and its title.
    const columns = (await (await columnsReply).json()).data.map((option) => ({ key: option.id, label: option.name }));
    assert.ok(columns.length >= 2, `the encashment's columns: ${JSON.stringify(columns)}`);
    made.columns = columns.slice(0, 2);

    // Twenty days of history always fall in the current and previous month.
    await page.getByTestId('report-period').click();
    await page.getByTestId('report-period-current_and_previous_month').click();
    await page.getByTestId('report-format').click();
    await page.getByTestId('report-format-csv').click();

    // The preview that follows the last change: the two columns chosen.
    const previewReply = page.waitForResponse((response) => {
      if (!isCall('POST', '/api/reports/generator/preview/')(response)) return false;
      const body = JSON.parse(response.request().postData() ?? '{}');
      return body.columns?.length === 2 && body.format === 'csv' && body.params?.period === 'current_and_previous_month';
    });
    previewReply.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    await page.getByTestId('report-columns').click();
    for (const column of made.columns) await page.getByRole('option', { name: column.label, exact: true }).click();
    await page.keyboard.press('Escape');
    const preview = await previewReply;
    assert.equal(preview.status(), 200, await preview.text());
    made.preview = (await preview.json()).data;
    assert.equal(made.preview.header.length, 2, JSON.stringify(made.preview.header));
    assert.ok(made.preview.total_rows > 0, 'the demo fleet has collections in the span');
    assert.ok(made.preview.rows.length > 0 && made.preview.rows.length <= 20, `preview rows: ${made.preview.rows.length}`);
    await page.waitForFunction(
      ([count]) => {
        const table = document.querySelector('[data-testid="report-preview-table"]');
        return table && table.querySelectorAll('thead th').length === 2 && table.querySelectorAll('tbody tr').length === count;
      },
      [made.preview.rows.length],
    );
    assert.deepEqual(await page.getByTestId('report-preview-table').locator('thead th').allTextContents(), made.preview.header);

    const saved = page.waitForResponse(isCall('POST', '/api/reports/generator/templates/'));
    await page.getByTestId('report-save-template').click();
    const reply = await saved;
    assert.equal(reply.status(), 201, await reply.text());
    made.template = (await reply.json()).data;
    assert.equal(made.template.name, TEMPLATE);
    assert.equal(made.template.module, 'encashment');
    assert.deepEqual(made.template.columns, made.columns.map((column) => column.key));
    await page.waitForURL((url) => url.pathname === '/report/report-generator' && url.searchParams.get('tab') === 'templates');
    await page.getByTestId('templates-grid').getByText(TEMPLATE, { exact: true }).waitFor();
  });

  test('run: the report’s progress reaches done, and its CSV holds the rows the preview counted', async () => {
    assert.ok(made.template, 'the template of the test before');
    const queued = page.waitForResponse(isCall('POST', `/api/reports/generator/templates/${made.template.id}/generate/`));
    await page.getByTestId('templates-grid').getByRole('button', { name: `Run: ${TEMPLATE}` }).click();
    const reply = await queued;
    assert.equal(reply.status(), 202, await reply.text());
    const report = (await reply.json()).data;
    assert.equal(report.template_id, made.template.id);
    assert.ok(['queued', 'running', 'done'].includes(report.status), report.status);

    // The reports tab follows it: the list asks again every 2 s until it is done.
    await page.waitForURL((url) => url.pathname === '/report/report-generator' && !url.searchParams.has('tab'));
    const row = page.getByTestId('reports-grid').locator('.MuiDataGrid-row', { has: page.getByText(report.name, { exact: true }) });
    await row.locator('[data-testid="report-status"][data-status="done"]').waitFor({ timeout: 90_000 });
    const progress = await call('GET', `/api/reports/generator/progress/${report.id}/`);
    assert.equal(progress.status, 200);
    assert.equal(progress.body.data.status, 'done');
    assert.equal(progress.body.data.progress, 100);
    const listed = await call('GET', '/api/reports/generator/reports/?page_size=100');
    const done = listed.body.data.find((item) => item.id === report.id);
    assert.ok(done, 'the report is listed');
    assert.equal(done.status, 'done');
    assert.match(done.file_name, /\.csv$/);

    const downloaded = page.waitForEvent('download');
    downloaded.catch(() => undefined); // awaited below; no unhandled rejection if a step before fails
    await row.getByRole('button', { name: `Download: ${report.name}` }).click();
    const download = await downloaded;
    assert.match(download.suggestedFilename(), /\.csv$/);
    const [header, ...records] = parseCsv(await readFile(await download.path(), 'utf8'));
    assert.deepEqual(header, made.preview.header, 'the file has the columns chosen, as the preview showed them');
    assert.equal(records.length, done.rows, 'the file holds the rows the report says it wrote');
    assert.equal(records.length, made.preview.total_rows, 'and as many as the preview counted');
  });

  test('a scheduled query: a preset, its next runs in its zone, sent now, and its e-mail in the outbox', async () => {
    // A plain address is mailed only in a domain the operator allows (none by default: users only).
    const policy = await call('GET', '/api/settings/operator/');
    assert.equal(policy.status, 200, JSON.stringify(policy.body));
    const allowed = await call('PUT', '/api/settings/operator/', {
      mail_domains: ['example.test'],
      min_task_interval_minutes: policy.body.data.min_task_interval_minutes,
      version: policy.body.data.version,
    });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    await page.goto(`${server.baseUrl}/settings/query-scheduler`);
    await page.getByTestId('new-query').click();
    await page.getByTestId('new-query-encashment').click();
    await page.waitForURL((url) => url.pathname === '/settings/create-query/encashment');
    await page.getByTestId('schedule-name').fill(QUERY);
    await page.getByTestId('report-format').click();
    await page.getByTestId('report-format-csv').click();
    await page.getByTestId('schedule-emails').fill(`${RECIPIENT},`);
    await page.getByTestId('schedule-recipients').getByText(RECIPIENT, { exact: true }).waitFor();
    await page.getByTestId('schedule-emails-message').getByText('Allowed domains: example.test').waitFor();

    // Every Monday at 06:45 in Rome. The next runs are asked once the fields rest; the browser's
    // own zone may already be Rome, so the reply is awaited from before the first change.
    const nextRuns = page.waitForResponse((response) => {
      if (!isCall('GET', '/api/query-schedulers/next-runs/')(response)) return false;
      const query = new URL(response.url()).searchParams;
      return query.get('minute') === '45' && query.get('hour') === '6' && query.get('day_of_week') === '1' && query.get('time_zone') === ZONE;
    });
    nextRuns.catch(() => undefined);
    await page.getByTestId('schedule-preset').click();
    await page.getByTestId('schedule-preset-weekly').click();
    await page.getByTestId('schedule-time').fill('06:45');
    const fields = {};
    for (const field of ['minute', 'hour', 'day_of_month', 'month', 'day_of_week']) fields[field] = await page.getByTestId(`cron-${field}`).inputValue();
    assert.deepEqual(fields, { minute: '45', hour: '6', day_of_month: '*', month: '*', day_of_week: '1' });
    assert.equal(await page.getByTestId('schedule-words').textContent(), 'At 06:45, only on Monday');

    await page.getByTestId('schedule-time-zone').click();
    await page.getByTestId('schedule-time-zone').fill(ZONE);
    await page.getByRole('option', { name: ZONE, exact: true }).click();
    const runsReply = await nextRuns;
    assert.equal(runsReply.status(), 200, await runsReply.text());
    const { runs } = (await runsReply.json()).data;
    assert.equal(runs.length, 5);
    assert.deepEqual([...runs].sort(), runs, 'in order');
    assert.ok(new Date(runs[0]).getTime() > Date.now(), 'the first run is still to come');
    for (const run of runs) assert.equal(localWeekdayTime(run, ZONE), 'Mon 06:45', run);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="schedule-next-run"]').length === 5);
    const shown = await page.getByTestId('schedule-next-run').allTextContents();
    assert.ok(shown.every((text) => text.includes('Monday') && text.includes('06:45')), JSON.stringify(shown));

    const created = page.waitForResponse(isCall('POST', '/api/query-schedulers/'));
    await page.getByTestId('schedule-submit').click();
    const createdReply = await created;
    assert.equal(createdReply.status(), 201, await createdReply.text());
    const task = (await createdReply.json()).data;
    assert.equal(task.time_zone, ZONE);
    assert.deepEqual(task.recipients.emails, [RECIPIENT]);
    assert.ok(task.next_run, 'an active query has its next run');
    assert.equal(localWeekdayTime(task.next_run, ZONE), 'Mon 06:45');
    await page.waitForURL((url) => url.pathname === '/settings/query-scheduler');
    const row = page.getByTestId('query-schedulers-grid').locator('.MuiDataGrid-row', { has: page.getByText(QUERY, { exact: true }) });
    await row.getByText('At 06:45, only on Monday').waitFor();

    const outbox = join(dataDir, 'outbox');
    const before = new Set(filesUnder(outbox));
    const sent = page.waitForResponse(isCall('POST', `/api/query-schedulers/${task.id}/send-now/`));
    await row.getByRole('button', { name: `Send now: ${QUERY}` }).click();
    const sentReply = await sent;
    assert.equal(sentReply.status(), 202, await sentReply.text());

    // The report is made, then e-mailed: wait for its message.
    const deadline = Date.now() + 90_000;
    let message = null;
    while (!message && Date.now() < deadline) {
      for (const file of filesUnder(outbox).filter((path) => path.endsWith('.eml') && !before.has(path))) {
        const text = readFileSync(file, 'utf8');
        if (text.includes(RECIPIENT)) message = text;
      }
      if (!message) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.ok(message, `no e-mail to ${RECIPIENT} under ${outbox}: ${JSON.stringify(filesUnder(outbox))}`);
    assert.match(message, new RegExp(`^To:.*${RECIPIENT.replace(/[.]/g, '\\.')}`, 'mi'));
  });

  test('no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
