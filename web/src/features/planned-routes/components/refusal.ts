import { isApiError } from '../../../api/client';

/** The server's reason for a refused request (its message and field messages), or `fallback` for anything else. */
export function refusalText(error: unknown, fallback: string): string {
  if (!isApiError(error) || error.status < 400 || error.status >= 500) return fallback;
  const reasons = Object.values(error.errors ?? {}).flat();
  return [error.message, ...reasons].filter(Boolean).join(' ') || fallback;
}
