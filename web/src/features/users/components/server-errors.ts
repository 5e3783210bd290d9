import { isApiError } from '../../../api/client';

/** First message per field of a 400/409 reply, for showing under the fields. */
export function fieldMessages(error: unknown): Record<string, string> {
  if (!isApiError(error)) return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.errors ?? {})) {
    if (Array.isArray(messages) && messages.length > 0) out[field] = String(messages[0]);
  }
  return out;
}

/** A 409 without field errors: the record changed since it was read. */
export function isStaleVersion(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && Object.keys(error.errors ?? {}).length === 0;
}
