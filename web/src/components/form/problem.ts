import type { TFunction } from 'i18next';
import type { I18nKey } from '../../locales/keys';
import type { FieldProblem } from '../validation';

// A form's own checks (zod) carry a translation key and its values, not a text: the field shows it
// in the language chosen when it is shown. The key travels through zod and react-hook-form as the
// issue's message, JSON-encoded; a server's message is plain text and is shown as it came.

const MARK = '\u0000problem:';

/** The message of a zod issue for this translation key and its values. */
export function problem(key: I18nKey, values?: Record<string, unknown>): string {
  return MARK + JSON.stringify(values === undefined ? { key } : { key, values });
}

/** The key and values inside an issue message made by `problem`; undefined for plain texts. */
export function readProblem(message: string | undefined): FieldProblem | undefined {
  if (!message?.startsWith(MARK)) return undefined;
  return JSON.parse(message.slice(MARK.length)) as FieldProblem;
}

/** The text to show for a field's message: translated when it is a key, as it came otherwise. */
export function problemText(message: string | undefined, t: TFunction): string | undefined {
  if (!message) return undefined;
  const found = readProblem(message);
  return found ? t(found.key, found.values) : message;
}
