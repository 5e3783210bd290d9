import { isApiError } from '../api/client';

/**
 * First message per field of a 400/409 reply, for showing under the fields. `aliases` maps a
 * server field name to the form's (e.g. `model_type` → `type`).
 */
export function fieldMessages(error: unknown, aliases: Record<string, string> = {}): Record<string, string> {
  if (!isApiError(error)) return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.errors ?? {})) {
    const name = aliases[field] ?? field;
    if (Array.isArray(messages) && messages.length > 0 && !out[name]) out[name] = String(messages[0]);
  }
  return out;
}

/** A 409 without field errors: the record changed since it was read. */
export function isStaleVersion(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && Object.keys(error.errors ?? {}).length === 0;
}

/** The server's reasons for a refused request (400: a report's filters), else `fallback`. */
export function failureText(error: unknown, fallback: string): string {
  if (!isApiError(error) || error.status !== 400) return fallback;
  const reasons = Object.values(error.errors ?? {}).flat();
  return reasons.length ? reasons.join(' ') : error.message || fallback;
}
