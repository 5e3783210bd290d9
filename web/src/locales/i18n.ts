import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import type { en as reportFiltersEn } from '../components/report-filters/locales/en';
import type { en as encashmentEn } from '../features/encashment/locales/en';
import type { en as refillLogEn } from '../features/refill-log/locales/en';
import type { en as inventoryEn } from '../features/inventory/locales/en';
import type { en as transactionLogEn } from '../features/transaction-log/locales/en';
import type { en as dashboardEn } from '../features/dashboard/locales/en';
import type { en as fleetEn } from '../features/fleet/locales/en';
import type { en as machinesEn } from '../features/machines/locales/en';
import type { en as productsEn } from '../features/products/locales/en';
import type { en as salesEn } from '../features/sales/locales/en';
import type { en as reportGeneratorEn } from '../features/report-generator/locales/en';
import type { en as querySchedulerEn } from '../features/query-scheduler/locales/en';
import type { en as routePlanningEn } from '../features/route-planning/locales/en';
import type { en as plannedRoutesEn } from '../features/planned-routes/locales/en';
import type { en as myDayEn } from '../features/my-day/locales/en';
import type { en as operatorSettingsEn } from '../features/operator-settings/locales/en';
import type { en as auditEn } from '../features/audit/locales/en';
import type { en as dataSourcesEn } from '../features/data-sources/locales/en';
import type { en as usersEn } from '../features/users/locales/en';
import type { en as settlementsEn } from '../features/settlements/locales/en';
import type { en as vatEn } from '../features/vat/locales/en';
import type { en as visitLedgerEn } from '../features/visit-ledger/locales/en';
import type { en as commonEn } from './en';
import type { Tree } from './shape';

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

/** The whole English catalogue: the shared strings (`en.ts`) and every area's (`areas-en.ts`), under their usual keys. */
export type Catalogue = typeof commonEn &
  typeof usersEn &
  typeof fleetEn &
  typeof machinesEn &
  typeof productsEn &
  typeof reportFiltersEn &
  typeof salesEn &
  typeof encashmentEn &
  typeof refillLogEn &
  typeof inventoryEn &
  typeof transactionLogEn &
  typeof dashboardEn &
  typeof reportGeneratorEn &
  typeof querySchedulerEn &
  typeof routePlanningEn &
  typeof plannedRoutesEn &
  typeof myDayEn &
  typeof operatorSettingsEn &
  typeof auditEn &
  typeof dataSourcesEn &
  typeof settlementsEn &
  typeof vatEn &
  typeof visitLedgerEn;

/**
 * A language's strings come in two namespaces, each a chunk of its own: `translation`, the shared
 * strings (`<code>.ts`) the sign-in page needs, and `areas`, every area's (`areas-<code>.ts`),
 * loaded before the first signed-in screen. A key not in the first is looked up in the second, so
 * the code names every key the same way. A visit loads the language it shows; a switch loads the
 * next before the screen changes language.
 */
const SHARED: Record<UiLanguage, () => Promise<Tree>> = {
  en: () => import('./en').then((module) => module.en),
  fr: () => import('./fr').then((module) => module.fr),
  it: () => import('./it').then((module) => module.it),
};
const AREAS: Record<UiLanguage, () => Promise<{ default: Tree }>> = {
  en: () => import('./areas-en'),
  fr: () => import('./areas-fr'),
  it: () => import('./areas-it'),
};
const AREAS_NS = 'areas';
let areasWanted = false;

function loadCatalogue(language: string, namespace: string): Promise<Tree | { default: Tree }> {
  if (!isSupportedLanguage(language)) return Promise.resolve({});
  return namespace === AREAS_NS ? AREAS[language]() : SHARED[language]();
}

/**
 * The areas' strings, in the current language and in every one chosen later: the signed-in screens
 * wait for them (routes/router.tsx), the sign-in page does not. Rejects when they did not arrive.
 */
export async function loadAreaCatalogues(): Promise<void> {
  areasWanted = true;
  await i18next.loadNamespaces(AREAS_NS);
  if (!i18next.hasResourceBundle(i18next.language, AREAS_NS)) throw new Error(`Loading chunk areas-${i18next.language} failed`);
}

/** The page's `lang` and `dir` follow the UI language (screen readers choose their voice by it). */
function markDocument(lng: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = directionOf(lng);
}

/** Resolves once the first language's catalogue is in: the app renders after it, never before. */
export const i18nReady: Promise<void> = i18next
  .use(resourcesToBackend(loadCatalogue))
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    ns: ['translation'],
    defaultNS: 'translation',
    fallbackNS: AREAS_NS,
    // Every language holds every key (locales.test.ts): no fallback, so a visit in French or
    // Italian does not load the English catalogue too.
    fallbackLng: false,
    supportedLngs: LANGUAGES.map((language) => language.code),
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { bindI18nStore: 'added' },
  })
  .then(() => {
    // The initial language is not a choice: it is stored only when the user changes it.
    markDocument(i18next.language);
    i18next.on('languageChanged', (lng) => {
      try {
        localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
      } catch {
        // Not fatal: the language just will not survive a reload.
      }
      markDocument(lng);
      // A switch that began before the areas were wanted loaded only the shared strings.
      // (The screens render again when they arrive: `bindI18nStore` below.)
      if (areasWanted && !i18next.hasResourceBundle(lng, AREAS_NS)) void i18next.loadNamespaces(AREAS_NS);
    });
  });

export default i18next;
