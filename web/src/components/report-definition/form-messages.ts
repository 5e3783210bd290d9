import { useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { problemText } from '../form';

/** The first message in an error tree (a field's own, or one of its parts'), skipping the DOM refs. */
export function firstMessage(node: unknown): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const { message } = node as { message?: unknown };
  if (typeof message === 'string' && message) return message;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'ref' || key === 'message' || key === 'type') continue;
    const found = firstMessage(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * The translated message of a group of values (`params`, `columns`, `recipients`): its own or the
 * first of its parts' (`params.date_from`, `recipients.emails.1`), where the server puts them.
 */
export function useGroupMessage(name: string): string | undefined {
  const { t } = useTranslation();
  const { errors } = useFormState({ name: name as never });
  const node = name.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], errors);
  return problemText(firstMessage(node), t);
}
