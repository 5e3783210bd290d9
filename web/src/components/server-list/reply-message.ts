import i18n from '../../locales/i18n';

/**
 * The server's message in a reply, in the user's language when its `code` is known (the server's
 * English text otherwise); undefined when the reply has none. The request succeeded either way.
 */
export function replyMessage(reply: unknown): string | undefined {
  if (!reply || typeof reply !== 'object') return undefined;
  const { message, code, count } = reply as { message?: unknown; code?: unknown; count?: unknown };
  const text = typeof message === 'string' && message ? message : undefined;
  const key = typeof code === 'string' && code ? `replies.${code}` : undefined;
  if (key && i18n.exists(key)) {
    return i18n.t(key as 'replies.user_created', { count: typeof count === 'number' ? count : undefined, defaultValue: text });
  }
  return text;
}
