import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { fr } from './fr';
import { it } from './it';

export const LANGUAGES = [
  { code: 'en', label: 'English', short: 'EN' },
  { code: 'fr', label: 'Français', short: 'FR' },
  { code: 'it', label: 'Italiano', short: 'IT' },
] as const;

export type UiLanguage = (typeof LANGUAGES)[number]['code'];

/** Languages written right to left; the layout flips when one of them is chosen. */
const RTL_LANGUAGES = ['ar'];

export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

export function isSupportedLanguage(code: unknown): code is UiLanguage {
  return typeof code === 'string' && LANGUAGES.some((language) => language.code === code);
}

export function directionOf(code: string): 'ltr' | 'rtl' {
  return RTL_LANGUAGES.includes(code.split('-')[0]) ? 'rtl' : 'ltr';
}

function initialLanguage(): UiLanguage {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isSupportedLanguage(stored)) return stored;
  } catch {
    // Storage may be blocked; fall through to the browser's language.
  }
  const browser = typeof navigator !== 'undefined' ? navigator.language.split('-')[0] : 'en';
  return isSupportedLanguage(browser) ? browser : 'en';
}

export const resources = {
  en: { translation: en },
  fr: { translation: fr },
  it: { translation: it },
} as const;

void i18next.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES.map((language) => language.code),
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

i18next.on('languageChanged', (lng) => {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // Not fatal: the language just will not survive a reload.
  }
  if (typeof document !== 'undefined') {
    document.documentElement.lang = lng;
    document.documentElement.dir = directionOf(lng);
  }
});

export default i18next;
