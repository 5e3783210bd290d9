import type { Translations } from './en';
import strings from './it.json';

// The Italian strings are kept as i18next resources in it.json; typed here against the English shape.
export const it: Translations = strings;
