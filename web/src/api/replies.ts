// The checks spec section 5 puts on server replies, in one place.
import { ApiError } from './client';
import type { ItemReply, ListReply } from './types';

function malformed(): ApiError {
  return new ApiError(0, 'Unexpected reply from the server');
}

/** A list reply must carry `data` and `pagination.count`. */
export function expectList<T>(reply: ListReply<T> | null): ListReply<T> {
  if (!reply || !Array.isArray(reply.data) || typeof reply.pagination?.count !== 'number') throw malformed();
  return reply;
}

/** The `data` of a `{data}` reply (reports, dashboard); a reply without it is a broken server. */
export function expectData<T>(reply: { data?: T | null } | null): T {
  if (!reply || reply.data === undefined || reply.data === null) throw malformed();
  return reply.data;
}

/** A get-by-id (or create/update) reply must carry `data.id`. */
export function expectItem<T extends { id: string }>(reply: ItemReply<T> | null): ItemReply<T> {
  if (!reply || !reply.data || typeof reply.data.id !== 'string') throw malformed();
  return reply;
}

/**
 * A create/update/action reply: the HTTP status already said it succeeded (the client rejects
 * anything else with an `ApiError`); the body only has to be there. Its `message` is for the
 * toast, never compared.
 */
export function expectReply<R extends { message?: string }>(reply: R | null): R {
  if (!reply || typeof reply !== 'object') throw malformed();
  return reply;
}
