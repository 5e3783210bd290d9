import type { ParseKeys } from 'i18next';

/** Any translation key of the app, checked against the English catalogue. */
export type I18nKey = ParseKeys<'translation'>;
