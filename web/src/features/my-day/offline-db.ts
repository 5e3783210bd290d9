// The refiller's phone keeps what it needs offline in one IndexedDB database: the outbox of
// bookings not yet taken by the server, and the copies of the routes opened (with their picklists
// and loading lists) read when the network is gone.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { OutboxItem } from './outbox-item';

/** A server reply kept on the phone, with when it was fetched (epoch ms). */
export interface Kept<T> {
  key: string;
  savedAt: number;
  value: T;
}

export interface MyDaySchema extends DBSchema {
  outbox: { key: string; value: OutboxItem; indexes: { seq: number } };
  kept: { key: string; value: Kept<unknown> };
}

export type MyDayDb = IDBPDatabase<MyDaySchema>;

export const DB_NAME = 'vendfleet-my-day';

/** Opens (and creates at first use) the database; tests pass a name of their own. */
export function openMyDayDb(name = DB_NAME): Promise<MyDayDb> {
  return openDB<MyDaySchema>(name, 1, {
    upgrade(db) {
      const outbox = db.createObjectStore('outbox', { keyPath: 'id' });
      outbox.createIndex('seq', 'seq', { unique: true });
      db.createObjectStore('kept', { keyPath: 'key' });
    },
  });
}

let shared: Promise<MyDayDb> | null = null;

/** The app's one connection. */
export function myDayDb(): Promise<MyDayDb> {
  shared ??= openMyDayDb();
  return shared;
}

/** Keeps a reply under `key` (replacing the older copy). */
export async function keep<T>(db: MyDayDb, key: string, value: T, savedAt: number): Promise<void> {
  await db.put('kept', { key, value, savedAt });
}

/** The copy kept under `key`, or null. */
export async function kept<T>(db: MyDayDb, key: string): Promise<Kept<T> | null> {
  return ((await db.get('kept', key)) as Kept<T> | undefined) ?? null;
}
