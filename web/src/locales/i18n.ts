import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en as reportFiltersEn } from '../components/report-filters/locales/en';
import { fr as reportFiltersFr } from '../components/report-filters/locales/fr';
import { it as reportFiltersIt } from '../components/report-filters/locales/it';
import { en as encashmentEn } from '../features/encashment/locales/en';
import { fr as encashmentFr } from '../features/encashment/locales/fr';
import { it as encashmentIt } from '../features/encashment/locales/it';
import { en as refillLogEn } from '../features/refill-log/locales/en';
import { fr as refillLogFr } from '../features/refill-log/locales/fr';
import { it as refillLogIt } from '../features/refill-log/locales/it';
import { en as inventoryEn } from '../features/inventory/locales/en';
import { fr as inventoryFr } from '../features/inventory/locales/fr';
import { it as inventoryIt } from '../features/inventory/locales/it';
import { en as transactionLogEn } from '../features/transaction-log/locales/en';
import { fr as transactionLogFr } from '../features/transaction-log/locales/fr';
import { it as transactionLogIt } from '../features/transaction-log/locales/it';
import { en as dashboardEn } from '../features/dashboard/locales/en';
import { fr as dashboardFr } from '../features/dashboard/locales/fr';
import { it as dashboardIt } from '../features/dashboard/locales/it';
import { en as fleetEn } from '../features/fleet/locales/en';
import { fr as fleetFr } from '../features/fleet/locales/fr';
import { it as fleetIt } from '../features/fleet/locales/it';
import { en as machinesEn } from '../features/machines/locales/en';
import { fr as machinesFr } from '../features/machines/locales/fr';
import { it as machinesIt } from '../features/machines/locales/it';
import { en as productsEn } from '../features/products/locales/en';
import { fr as productsFr } from '../features/products/locales/fr';
import { it as productsIt } from '../features/products/locales/it';
import { en as salesEn } from '../features/sales/locales/en';
import { fr as salesFr } from '../features/sales/locales/fr';
import { it as salesIt } from '../features/sales/locales/it';
import { en as reportGeneratorEn } from '../features/report-generator/locales/en';
import { fr as reportGeneratorFr } from '../features/report-generator/locales/fr';
import { it as reportGeneratorIt } from '../features/report-generator/locales/it';
import { en as querySchedulerEn } from '../features/query-scheduler/locales/en';
import { fr as querySchedulerFr } from '../features/query-scheduler/locales/fr';
import { it as querySchedulerIt } from '../features/query-scheduler/locales/it';
import { en as routePlanningEn } from '../features/route-planning/locales/en';
import { fr as routePlanningFr } from '../features/route-planning/locales/fr';
import { it as routePlanningIt } from '../features/route-planning/locales/it';
import { en as plannedRoutesEn } from '../features/planned-routes/locales/en';
import { fr as plannedRoutesFr } from '../features/planned-routes/locales/fr';
import { it as plannedRoutesIt } from '../features/planned-routes/locales/it';
import { en as operatorSettingsEn } from '../features/operator-settings/locales/en';
import { fr as operatorSettingsFr } from '../features/operator-settings/locales/fr';
import { it as operatorSettingsIt } from '../features/operator-settings/locales/it';
import { en as auditEn } from '../features/audit/locales/en';
import { fr as auditFr } from '../features/audit/locales/fr';
import { it as auditIt } from '../features/audit/locales/it';
import { en as usersEn } from '../features/users/locales/en';
import { fr as usersFr } from '../features/users/locales/fr';
import { it as usersIt } from '../features/users/locales/it';
import { en as commonEn } from './en';
import { fr as commonFr } from './fr';
import { it as commonIt } from './it';
import { mergeCatalogues, type Shape } from './shape';

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

/** The whole English catalogue: the shared strings and every area's, under their usual keys. */
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
  typeof operatorSettingsEn &
  typeof auditEn;

/** Per language, the shared catalogue first, then the areas' (see `features/<area>/locales/`). */
export const catalogues = {
  en: mergeCatalogues([
    commonEn,
    usersEn,
    fleetEn,
    machinesEn,
    productsEn,
    reportFiltersEn,
    salesEn,
    encashmentEn,
    refillLogEn,
    inventoryEn,
    transactionLogEn,
    dashboardEn,
    reportGeneratorEn,
    querySchedulerEn,
    routePlanningEn,
    plannedRoutesEn,
    operatorSettingsEn,
    auditEn,
  ]) as Catalogue,
  fr: mergeCatalogues([
    commonFr,
    usersFr,
    fleetFr,
    machinesFr,
    productsFr,
    reportFiltersFr,
    salesFr,
    encashmentFr,
    refillLogFr,
    inventoryFr,
    transactionLogFr,
    dashboardFr,
    reportGeneratorFr,
    querySchedulerFr,
    routePlanningFr,
    plannedRoutesFr,
    operatorSettingsFr,
    auditFr,
  ]) as Shape<Catalogue>,
  it: mergeCatalogues([
    commonIt,
    usersIt,
    fleetIt,
    machinesIt,
    productsIt,
    reportFiltersIt,
    salesIt,
    encashmentIt,
    refillLogIt,
    inventoryIt,
    transactionLogIt,
    dashboardIt,
    reportGeneratorIt,
    querySchedulerIt,
    routePlanningIt,
    plannedRoutesIt,
    operatorSettingsIt,
    auditIt,
  ]) as Shape<Catalogue>,
};

export const resources = {
  en: { translation: catalogues.en },
  fr: { translation: catalogues.fr },
  it: { translation: catalogues.it },
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

/** The page's `lang` and `dir` follow the UI language (screen readers choose their voice by it). */
function markDocument(lng: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = directionOf(lng);
}

// The initial language was chosen before this listener existed (init is synchronous).
markDocument(i18next.language);

i18next.on('languageChanged', (lng) => {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // Not fatal: the language just will not survive a reload.
  }
  markDocument(lng);
});

export default i18next;
