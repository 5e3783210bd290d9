import type { Translations } from './en';
import strings from './fr.json';

// The French strings are kept as i18next resources in fr.json; typed here against the English shape.
export const fr: Translations = strings;
