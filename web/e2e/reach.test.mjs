// Route planning for two refillers of different reach (issue 29), in the browser against the real
// server with a seeded demo fleet: Anna reaches one location, Bruno another; generating for both
// gives each only machines of their own location, and a machine neither reaches is named (never
// its id) in the error that stops the plan.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launchBrowser, watchConsole } from './browser.mjs';
import { apiCall, signIn } from './signed-in.mjs';

const tag = Date.now().toString(36);

let server;
let browser;
let page;
const consoleLog = { errors: [], expected: [] };
/** Three machines at three locations (the first two nearest each other), and the two refillers. */
const made = { machines: [], refillers: [] };

const isGenerate = (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/route-planning/generate-picklist/';

/** Checks the rows of `ids` in the ranked list, chooses `refillers`, generates: the reply. */
async function generate(ids, refillers) {
  const grid = page.getByTestId('ranked-grid');
  // Every row asked for is there before any is ticked (the list may still be filling in).
  for (const id of ids) await grid.locator(`.MuiDataGrid-row[data-id="${id}"]`).waitFor();
  for (const row of await grid.locator('.MuiDataGrid-row').all()) {
    const box = row.getByRole('checkbox');
    const wanted = ids.includes(await row.getAttribute('data-id'));
    if ((await box.isChecked()) !== wanted) await box.setChecked(wanted);
  }
  for (const id of ids) {
    const box = grid.locator(`.MuiDataGrid-row[data-id="${id}"]`).getByRole('checkbox');
    if (!(await box.isChecked())) throw new Error(`${id} is not ticked`);
  }
  await page.getByTestId('planning-refillers').click();
  for (const person of refillers) {
    const option = page.getByRole('option', { name: person.name, exact: true });
    if ((await option.getAttribute('aria-selected')) !== 'true') await option.click();
  }
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelector('[data-testid="planning-generate"]')?.disabled === false);
  const reply = page.waitForResponse(isGenerate);
  reply.catch(() => undefined);
  await page.getByTestId('planning-generate').click();
  return reply;
}

describe('route planning by reach', { concurrency: false }, () => {
  before(async () => {
    server = await startServer({ seed: { machines: 12, days: 10 } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watchConsole(page, consoleLog);
    await signIn(page, server.baseUrl, '/planning/route-planning');
    const ranked = await apiCall(page, 'GET', '/api/route-planning/?page_size=100');
    assert.equal(ranked.status, 200, JSON.stringify(ranked.body));
    const placed = ranked.body.data.filter((m) => typeof m.latitude === 'number' && m.location_id);
    // The two machines of different locations nearest each other (one van's shift), and a third
    // of yet another location.
    let best = null;
    for (const a of placed) {
      for (const b of placed) {
        if (a.location_id >= b.location_id) continue;
        const d = (a.latitude - b.latitude) ** 2 + (a.longitude - b.longitude) ** 2;
        if (!best || d < best.d) best = { d, pair: [a, b] };
      }
    }
    assert.ok(best, 'two machines of two locations');
    const third = placed.find((m) => !best.pair.some((p) => p.location_id === m.location_id));
    assert.ok(third, 'a machine of a third location');
    made.machines = [...best.pair, third];
    for (const [i, name] of [`Anna Reach ${tag}`, `Bruno Reach ${tag}`].entries()) {
      const person = { name, email: `reach.${i}.${tag}@vendfleet.test` };
      const created = await apiCall(page, 'POST', '/api/users/', {
        ...person,
        password: 'Reach-pass-1234',
        language: 'en',
        active: true,
        access_all_modules: false,
        access_all_machines: false,
        location_ids: [made.machines[i].location_id],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      made.refillers.push({ ...person, id: created.body.data.id });
    }
    await page.reload();
    await page.getByTestId('ranked-grid').locator('.MuiDataGrid-row').first().waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('two refillers: each is given only the machines they reach', async () => {
    const [m1, m2] = made.machines;
    const reply = await generate([m1.id, m2.id], made.refillers);
    assert.equal(reply.status(), 200, await reply.text());
    const plan = (await reply.json()).data;
    const routed = (person) => plan.routes.find((r) => r.employee_id === person.id)?.stops.map((s) => s.machine_id) ?? [];
    const [anna, bruno] = made.refillers;
    assert.ok(routed(anna).every((id) => id === m1.id), JSON.stringify(plan));
    assert.ok(routed(bruno).every((id) => id === m2.id), JSON.stringify(plan));
    // Each machine is routed by the one who reaches it, or said to be left out.
    const left = plan.unassigned.map((u) => u.machine_id);
    assert.ok(routed(anna).includes(m1.id) || left.includes(m1.id), JSON.stringify(plan));
    assert.ok(routed(bruno).includes(m2.id) || left.includes(m2.id), JSON.stringify(plan));
    await page.getByTestId(`plan-route-${routed(anna).length ? anna.id : bruno.id}`).waitFor();
  });

  test('a machine neither reaches is named in the error, never by its id', async () => {
    const third = made.machines[2];
    consoleLog.expected.push({ url: '/api/route-planning/generate-picklist/', status: 400 });
    const reply = await generate(made.machines.map((m) => m.id), made.refillers);
    assert.equal(reply.status(), 400, await reply.text());
    const message = page.getByText(/Nobody chosen can reach/).first();
    await message.waitFor();
    const text = await message.textContent();
    assert.ok(text.includes(third.name), text);
    assert.ok(!text.includes(third.id), text);
  });

  test('no console errors but the refused plan', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
