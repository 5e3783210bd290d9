import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openMyDayDb } from './offline-db';
import { backoff, classify, Outbox } from './outbox';
import type { OutboxItem } from './outbox-item';

let dbCount = 0;

/** A server that books each `request_id` once, answering `replayed` to a repeat. */
function fakeServer() {
  const booked = new Map<string, Record<string, unknown>>();
  const received: string[] = [];
  return {
    booked,
    received,
    take(item: OutboxItem) {
      const id = String(item.body.request_id ?? item.id);
      received.push(id);
      if (booked.has(id)) return { replayed: true };
      booked.set(id, item.body);
      return { replayed: false };
    },
  };
}

/** An outbox on a fresh database with a hand-driven clock and timer. */
function setup(send: (item: OutboxItem) => Promise<unknown>, name = `outbox-test-${++dbCount}`, network = { online: true }) {
  const clock = { now: 1_000_000 };
  const timers: { at: number; run: () => void }[] = [];
  let ids = 0;
  const outbox = new Outbox({
    db: openMyDayDb(name),
    send,
    now: () => clock.now,
    random: () => 0.5,
    newId: () => `id-${name}-${++ids}`,
    isOnline: () => network.online,
    schedule: (run, ms) => {
      const timer = { at: clock.now + ms, run };
      timers.push(timer);
      return () => timers.splice(timers.indexOf(timer), 1);
    },
  });
  return { outbox, clock, timers, name };
}

const visit = (machineId: string) => ({
  kind: 'visit' as const,
  path: '/api/machines/fill-from-route/',
  body: { route_id: 'r1', machine_id: machineId, lines: [] },
  routeId: 'r1',
  machineId,
  label: machineId,
});

const offline = () => Object.assign(new Error('Failed to fetch'), { status: 0 });

describe('classify', () => {
  it('retries what may pass later, waits for sign-in on 401, keeps other refusals', () => {
    for (const status of [0, 408, 429, 500, 502, 503]) expect(classify(status)).toBe('retry');
    expect(classify(401)).toBe('sign-in');
    for (const status of [400, 403, 404, 409, 413, 422]) expect(classify(status)).toBe('refused');
  });
});

describe('backoff', () => {
  it('doubles from 1 s to a 60 s cap, the second half of each wait random', () => {
    expect(backoff(1, () => 0)).toBe(500);
    expect(backoff(1, () => 1)).toBe(1000);
    expect(backoff(2, () => 1)).toBe(2000);
    expect(backoff(3, () => 0.5)).toBe(3000);
    expect(backoff(7, () => 1)).toBe(60_000);
    expect(backoff(50, () => 1)).toBe(60_000);
    expect(backoff(50, () => 0)).toBe(30_000);
  });
});

describe('Outbox', () => {
  it('stores each booking before sending, with a request_id made once, and sends them in order', async () => {
    const server = fakeServer();
    const { outbox } = setup(async (item) => server.take(item));
    const a = await outbox.add(visit('m1'));
    const b = await outbox.add(visit('m2'));
    const c = await outbox.add(visit('m3'));
    expect(a.body.request_id).toBe(a.requestId);
    expect((await outbox.list()).map((item) => item.status)).toEqual(['queued', 'queued', 'queued']);
    await outbox.flush();
    expect(server.received).toEqual([a.requestId, b.requestId, c.requestId]);
    const items = await outbox.list();
    expect(items.map((item) => [item.machineId, item.status, item.replayed])).toEqual([
      ['m1', 'sent', false],
      ['m2', 'sent', false],
      ['m3', 'sent', false],
    ]);
  });

  it('an audit upload goes without a request_id (the server takes the same file once)', async () => {
    const sent: OutboxItem[] = [];
    const { outbox } = setup(async (item) => {
      sent.push(item);
      return [];
    });
    await outbox.add({ ...visit('m1'), kind: 'audit', path: '/api/machines/eva-dts/read/', body: { machine_id: 'm1', content: 'DXS*' } });
    await outbox.flush();
    expect(sent[0].body).toEqual({ machine_id: 'm1', content: 'DXS*' });
  });

  it('offline: retries with a growing, capped back-off and no limit, keeping the order', async () => {
    const server = fakeServer();
    let online = false;
    const { outbox, clock, timers } = setup(async (item) => {
      if (!online) throw offline();
      return server.take(item);
    });
    await outbox.add(visit('m1'));
    await outbox.add(visit('m2'));
    const waits: number[] = [];
    await outbox.flush();
    for (let round = 0; round < 12; round += 1) {
      const timer = timers.shift();
      expect(timer).toBeDefined();
      waits.push(timer!.at - clock.now);
      clock.now = timer!.at;
      timer!.run();
      await outbox.flush();
    }
    // 0.75 × (1, 2, 4 … s) with the random half at 0.5, then 45 s under the 60 s cap, on and on.
    expect(waits).toEqual([750, 1500, 3000, 6000, 12_000, 24_000, 45_000, 45_000, 45_000, 45_000, 45_000, 45_000]);
    const [first, second] = await outbox.list();
    expect(first.attempts).toBe(13);
    expect(first.status).toBe('queued');
    expect(first.lastError).toBe('Failed to fetch');
    expect(second.attempts).toBe(0);
    expect(server.received).toEqual([]);

    online = true;
    clock.now = timers[0].at;
    await outbox.flush();
    expect((await outbox.list()).map((item) => item.status)).toEqual(['sent', 'sent']);
    expect(server.received).toHaveLength(2);
  });

  it('known offline: nothing is tried and no back-off spent until the network is back', async () => {
    const server = fakeServer();
    const network = { online: false };
    const { outbox, timers } = setup(async (item) => server.take(item), undefined, network);
    await outbox.add(visit('m1'));
    await outbox.flush();
    const [waiting] = await outbox.list();
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0 });
    expect(timers).toHaveLength(0);
    network.online = true;
    await outbox.flush();
    expect((await outbox.list())[0].status).toBe('sent');
  });

  it('a flush before the item is due waits for its time (an online event does not skip the back-off)', async () => {
    let calls = 0;
    const { outbox, clock } = setup(async () => {
      calls += 1;
      throw offline();
    });
    await outbox.add(visit('m1'));
    await outbox.flush();
    await outbox.flush();
    expect(calls).toBe(1);
    clock.now += 1500;
    await outbox.flush();
    expect(calls).toBe(2);
  });

  it('an answer lost on the way back: the resend with the same request_id books nothing twice', async () => {
    const server = fakeServer();
    let cut = true;
    const { outbox, clock } = setup(async (item) => {
      const reply = server.take(item);
      if (cut) {
        cut = false;
        throw offline();
      }
      return reply;
    });
    const item = await outbox.add(visit('m1'));
    await outbox.flush();
    clock.now += 60_000;
    await outbox.flush();
    expect(server.received).toEqual([item.requestId, item.requestId]);
    expect(server.booked.size).toBe(1);
    const [sent] = await outbox.list();
    expect(sent.status).toBe('sent');
    expect(sent.replayed).toBe(true);
  });

  it('survives a reload: an item the dead page was sending is queued again and resent with its request_id', async () => {
    const name = `outbox-reload-${++dbCount}`;
    const first = setup(() => new Promise(() => undefined), name);
    const item = await first.outbox.add(visit('m1'));
    void first.outbox.flush();
    await expect.poll(async () => (await first.outbox.list())[0]?.status).toBe('sending');
    first.outbox.dispose();

    const server = fakeServer();
    const second = setup(async (sent) => server.take(sent), name);
    await second.outbox.recover();
    expect((await second.outbox.list())[0].status).toBe('queued');
    await second.outbox.flush();
    expect(server.received).toEqual([item.requestId]);
    expect((await second.outbox.list())[0].status).toBe('sent');
  });

  it('a refusal is kept with the server’s reason, the later bookings go on; unchanged resend keeps the request_id', async () => {
    const server = fakeServer();
    let refuse = true;
    const { outbox } = setup(async (item) => {
      if (refuse && item.machineId === 'm1') {
        throw Object.assign(new Error('This stop was already visited'), { status: 409, errors: { machine_id: ['Visited at 10:02'] } });
      }
      return server.take(item);
    });
    const a = await outbox.add(visit('m1'));
    const b = await outbox.add(visit('m2'));
    await outbox.flush();
    const [refused, sent] = await outbox.list();
    expect(refused.status).toBe('refused');
    expect(refused.refusal).toEqual({ status: 409, message: 'This stop was already visited', errors: { machine_id: ['Visited at 10:02'] } });
    expect(sent.status).toBe('sent');
    expect(server.received).toEqual([b.requestId]);

    // Flushing again never resends a refused item by itself.
    await outbox.flush();
    expect(server.received).toEqual([b.requestId]);

    refuse = false;
    await outbox.resend(a.id, { ...a.body });
    expect(server.received).toEqual([b.requestId, a.requestId]);
    expect((await outbox.list())[0].status).toBe('sent');
  });

  it('a changed booking is another booking: a new request_id', async () => {
    const server = fakeServer();
    const { outbox } = setup(async (item) => {
      if (item.body.cash_bag === 'bad') throw Object.assign(new Error('Bad bag'), { status: 400, errors: { cash_bag: ['Too long'] } });
      return server.take(item);
    });
    const a = await outbox.add({ ...visit('m1'), body: { ...visit('m1').body, cash_bag: 'bad' } });
    await outbox.flush();
    await outbox.resend(a.id, { ...visit('m1').body, cash_bag: 'B-12' });
    const [fixed] = await outbox.list();
    expect(fixed.status).toBe('sent');
    expect(fixed.requestId).not.toBe(a.requestId);
    expect(fixed.body).toMatchObject({ cash_bag: 'B-12', request_id: fixed.requestId });
    expect(server.received).toEqual([fixed.requestId]);
  });

  it('discards only refused items', async () => {
    const { outbox } = setup(async (item) => {
      if (item.machineId === 'm1') throw Object.assign(new Error('Not on route'), { status: 404 });
      throw offline();
    });
    const a = await outbox.add(visit('m1'));
    const b = await outbox.add(visit('m2'));
    await outbox.flush();
    await outbox.discard(b.id);
    await outbox.discard(a.id);
    expect((await outbox.list()).map((item) => item.id)).toEqual([b.id]);
  });

  it('a 401 holds the item for the next sign-in, not as a refusal', async () => {
    let signedIn = false;
    const server = fakeServer();
    const { outbox } = setup(async (item) => {
      if (!signedIn) throw Object.assign(new Error('Unauthorized'), { status: 401 });
      return server.take(item);
    });
    await outbox.add(visit('m1'));
    await outbox.flush();
    const [held] = await outbox.list();
    expect(held.status).toBe('queued');
    expect(held.waitingForSignIn).toBe(true);
    signedIn = true;
    await outbox.flush();
    expect((await outbox.list())[0].status).toBe('sent');
  });

  it('tells its listeners of each change and prunes what was sent long ago', async () => {
    const { outbox, clock } = setup(async () => ({ replayed: false }));
    let changes = 0;
    const stop = outbox.subscribe(() => {
      changes += 1;
    });
    await outbox.add(visit('m1'));
    await outbox.flush();
    expect(changes).toBeGreaterThanOrEqual(3);
    stop();
    clock.now += 3 * 86_400_000;
    await outbox.prune(2 * 86_400_000);
    expect(await outbox.list()).toEqual([]);
  });
});
