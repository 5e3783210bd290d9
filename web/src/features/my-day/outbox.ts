// The durable outbox of the refiller's bookings (issue 30). Every booking is written to IndexedDB
// before it is sent; the outbox sends them one at a time in the order they were made, each with the
// `request_id` it was given when it was booked, so a resend after a lost answer books nothing twice
// (the server answers `replayed`). Network errors, 5xx, 408 and 429 are retried with a capped,
// jittered back-off and no retry limit; a 401 waits for the next sign-in; any other refusal is kept
// with the server's reason for the refiller to fix and resend, or discard.
import type { MyDayDb } from './offline-db';
import type { OutboxDraft, OutboxItem, OutboxKind, OutboxRefusal } from './outbox-item';

export type Failure = 'retry' | 'sign-in' | 'refused';

/** What to do after a failed send, by HTTP status (0: no answer at all). */
export function classify(status: number): Failure {
  if (status === 401) return 'sign-in';
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  return 'refused';
}

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 60_000;

/** The wait before the n-th retry (n ≥ 1): doubling from 1 s up to 60 s, the second half of it random. */
export function backoff(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** An error's status, message and field messages (an `ApiError` or anything thrown). */
function readFailure(error: unknown): OutboxRefusal {
  const record = (error && typeof error === 'object' ? error : {}) as { status?: unknown; message?: unknown; errors?: unknown };
  return {
    status: typeof record.status === 'number' ? record.status : 0,
    message: typeof record.message === 'string' ? record.message : String(error),
    errors: record.errors && typeof record.errors === 'object' ? (record.errors as Record<string, string[]>) : {},
  };
}

/** Needs the refiller: refused and kept. */
export const needsAttention = (item: OutboxItem) => item.status === 'refused';
/** Still to be taken by the server. */
export const isPending = (item: OutboxItem) => item.status === 'queued' || item.status === 'sending';

export interface OutboxOptions {
  db: Promise<MyDayDb>;
  /** Posts an item's body to its path; resolves with the reply's `data`, throws an `ApiError`-like error. */
  send: (item: OutboxItem) => Promise<unknown>;
  now?: () => number;
  random?: () => number;
  newId?: () => string;
  /** Runs `run` after `ms`; returns its cancel. */
  schedule?: (run: () => void, ms: number) => () => void;
  /** False when the device knows it is offline: nothing is tried until the `online` event. */
  isOnline?: () => boolean;
}

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function randomId(): string {
  return crypto.randomUUID();
}

function later(run: () => void, ms: number): () => void {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
}

/** The body as sent: a visit carries its `request_id`. */
function withRequestId(kind: OutboxKind, body: Record<string, unknown>, requestId: string): Record<string, unknown> {
  return kind === 'visit' ? { ...body, request_id: requestId } : body;
}

/** A booking to be sent as if new: queued, never tried. */
const FRESH = { status: 'queued', attempts: 0, nextAttemptAt: 0, lastError: null, waitingForSignIn: false, refusal: null } as const satisfies Partial<OutboxItem>;

function sameBody(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const strip = ({ request_id: _ignored, ...rest }: Record<string, unknown>) => rest;
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

export class Outbox {
  private readonly db: Promise<MyDayDb>;
  private readonly send: OutboxOptions['send'];
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly newId: () => string;
  private readonly schedule: NonNullable<OutboxOptions['schedule']>;
  private readonly isOnline: () => boolean;
  private readonly listeners = new Set<() => void>();
  private running: Promise<void> | null = null;
  private again = false;
  private cancelTimer: (() => void) | null = null;
  private disposed = false;

  constructor(options: OutboxOptions) {
    this.db = options.db;
    this.send = options.send;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.newId = options.newId ?? randomId;
    this.schedule = options.schedule ?? later;
    this.isOnline = options.isOnline ?? browserOnline;
  }

  /** Every item, in the order they were booked. */
  async list(): Promise<OutboxItem[]> {
    return (await this.db).getAllFromIndex('outbox', 'seq');
  }

  /** Stores a booking with a new `request_id`, before anything is sent. */
  async add(draft: OutboxDraft): Promise<OutboxItem> {
    const db = await this.db;
    const requestId = this.newId();
    const tx = db.transaction('outbox', 'readwrite');
    const last = await tx.store.index('seq').openCursor(null, 'prev');
    const item: OutboxItem = {
      id: this.newId(),
      seq: (last?.value.seq ?? 0) + 1,
      kind: draft.kind,
      path: draft.path,
      body: withRequestId(draft.kind, draft.body, requestId),
      requestId,
      routeId: draft.routeId,
      machineId: draft.machineId,
      label: draft.label,
      createdAt: this.now(),
      ...FRESH,
      sentAt: null,
      replayed: false,
    };
    await tx.store.add(item);
    await tx.done;
    this.changed();
    return item;
  }

  /** After a reload: an item the dead page was sending is queued again (the server dedups it). */
  async recover(): Promise<void> {
    const db = await this.db;
    for (const item of await db.getAll('outbox')) {
      if (item.status === 'sending') await db.put('outbox', { ...item, status: 'queued' });
    }
    this.changed();
  }

  /** Drops what the server took more than `age` ms ago. */
  async prune(age: number): Promise<void> {
    const db = await this.db;
    const before = this.now() - age;
    for (const item of await db.getAll('outbox')) {
      if (item.status === 'sent' && item.sentAt !== null && item.sentAt < before) await db.delete('outbox', item.id);
    }
    this.changed();
  }

  /**
   * Sends a refused item again: unchanged with its `request_id`, changed (a new `body`) with a new
   * one, as it is another booking for the server.
   */
  async resend(id: string, body?: Record<string, unknown>): Promise<void> {
    const db = await this.db;
    const item = await db.get('outbox', id);
    if (!item || item.status === 'sent') return;
    const changed = body !== undefined && !sameBody(body, item.body);
    const requestId = changed ? this.newId() : item.requestId;
    await db.put('outbox', {
      ...item,
      body: withRequestId(item.kind, changed ? body : item.body, requestId),
      requestId,
      ...FRESH,
    });
    this.changed();
    await this.flush();
  }

  /** Throws away an item the server refused (never one still being sent or already taken). */
  async discard(id: string): Promise<void> {
    const db = await this.db;
    const item = await db.get('outbox', id);
    if (item?.status !== 'refused') return;
    await db.delete('outbox', id);
    this.changed();
  }

  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Stops the timer; a flush under way ends after its current item. */
  dispose(): void {
    this.disposed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /**
   * Sends what is due, one at a time and in order, until the queue is empty or an item has to
   * wait. One run at a time (across the tabs too, where the browser has Web Locks); a call during
   * a run makes it look again when it ends.
   */
  flush(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    const run = async () => {
      do {
        this.again = false;
        await this.sendDue();
      } while (this.again && !this.disposed);
    };
    this.running = (locks ? locks.request('vendfleet-outbox', run) : run()).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private plan(ms: number): void {
    if (this.disposed) return;
    this.cancelTimer?.();
    this.cancelTimer = this.schedule(() => {
      this.cancelTimer = null;
      void this.flush();
    }, ms);
  }

  private async sendDue(): Promise<void> {
    const db = await this.db;
    // Known offline: no attempt (and no back-off spent); the `online` event sends.
    while (!this.disposed && this.isOnline()) {
      const items = await db.getAllFromIndex('outbox', 'seq');
      // A refused item waits for the refiller; the ones after it go on.
      const next = items.find(isPending);
      if (!next) return;
      const wait = next.nextAttemptAt - this.now();
      if (wait > 0) {
        this.plan(wait);
        return;
      }
      await db.put('outbox', { ...next, status: 'sending' });
      this.changed();
      try {
        const reply = (await this.send(next)) as { replayed?: unknown } | null;
        await db.put('outbox', {
          ...next,
          status: 'sent',
          sentAt: this.now(),
          replayed: reply?.replayed === true,
          lastError: null,
          waitingForSignIn: false,
        });
        this.changed();
      } catch (error) {
        const failure = readFailure(error);
        const kind = classify(failure.status);
        if (kind === 'refused') {
          await db.put('outbox', { ...next, status: 'refused', refusal: failure, lastError: null, waitingForSignIn: false });
          this.changed();
          continue;
        }
        const attempts = next.attempts + 1;
        const delay = kind === 'retry' ? backoff(attempts, this.random) : 0;
        await db.put('outbox', {
          ...next,
          status: 'queued',
          attempts,
          nextAttemptAt: this.now() + delay,
          lastError: failure.message,
          waitingForSignIn: kind === 'sign-in',
        });
        this.changed();
        // After a 401 the next sign-in (or the next trigger) sends again.
        if (kind === 'retry') this.plan(delay);
        return;
      }
    }
  }
}
