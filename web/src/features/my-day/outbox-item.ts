// What the outbox keeps of a booking (issue 30): the item stored in the phone's IndexedDB
// (`offline-db.ts`, whose schema names it) and sent by the outbox (`outbox.ts`), which reads that
// database. Apart from both, so that neither has to import the other for its shapes.

export type OutboxKind = 'visit' | 'audit';
/** `sending` after a page died mid-send is read as queued (and sent again with the same id). */
export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'refused';

/** What the server said when it refused a booking: its status, message and field messages. */
export interface OutboxRefusal {
  status: number;
  message: string;
  errors: Record<string, string[]>;
}

export interface OutboxItem {
  /** The item's own key on the phone (never sent). */
  id: string;
  /** The order the bookings were made in. */
  seq: number;
  kind: OutboxKind;
  /** The API path it is posted to. */
  path: string;
  /** The request body; a visit's carries `request_id` (= `requestId`). */
  body: Record<string, unknown>;
  requestId: string;
  routeId: string;
  machineId: string;
  /** What the queue shows (the machine's name). */
  label: string;
  createdAt: number;
  status: OutboxStatus;
  attempts: number;
  /** Not sent again before (epoch ms). */
  nextAttemptAt: number;
  /** The last failure that will be retried (offline, a server fault). */
  lastError: string | null;
  /** Held until the refiller signs in again (a 401). */
  waitingForSignIn: boolean;
  refusal: OutboxRefusal | null;
  sentAt: number | null;
  /** The server had booked it before (the same `request_id` again). */
  replayed: boolean;
}

export interface OutboxDraft {
  kind: OutboxKind;
  path: string;
  /** Without `request_id`: the outbox adds it to a visit. */
  body: Record<string, unknown>;
  routeId: string;
  machineId: string;
  label: string;
}
