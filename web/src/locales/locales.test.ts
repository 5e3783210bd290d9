import { describe, expect, it } from 'vitest';
import * as reportFiltersEn from '../components/report-filters/locales/en';
import * as reportFiltersFr from '../components/report-filters/locales/fr';
import * as reportFiltersIt from '../components/report-filters/locales/it';
import * as encashmentEn from '../features/encashment/locales/en';
import * as encashmentFr from '../features/encashment/locales/fr';
import * as encashmentIt from '../features/encashment/locales/it';
import * as refillLogEn from '../features/refill-log/locales/en';
import * as refillLogFr from '../features/refill-log/locales/fr';
import * as refillLogIt from '../features/refill-log/locales/it';
import * as inventoryEn from '../features/inventory/locales/en';
import * as inventoryFr from '../features/inventory/locales/fr';
import * as inventoryIt from '../features/inventory/locales/it';
import * as transactionLogEn from '../features/transaction-log/locales/en';
import * as transactionLogFr from '../features/transaction-log/locales/fr';
import * as transactionLogIt from '../features/transaction-log/locales/it';
import * as dashboardEn from '../features/dashboard/locales/en';
import * as dashboardFr from '../features/dashboard/locales/fr';
import * as dashboardIt from '../features/dashboard/locales/it';
import * as fleetEn from '../features/fleet/locales/en';
import * as fleetFr from '../features/fleet/locales/fr';
import * as fleetIt from '../features/fleet/locales/it';
import * as machinesEn from '../features/machines/locales/en';
import * as machinesFr from '../features/machines/locales/fr';
import * as machinesIt from '../features/machines/locales/it';
import * as productsEn from '../features/products/locales/en';
import * as productsFr from '../features/products/locales/fr';
import * as productsIt from '../features/products/locales/it';
import * as salesEn from '../features/sales/locales/en';
import * as salesFr from '../features/sales/locales/fr';
import * as salesIt from '../features/sales/locales/it';
import * as reportGeneratorEn from '../features/report-generator/locales/en';
import * as reportGeneratorFr from '../features/report-generator/locales/fr';
import * as reportGeneratorIt from '../features/report-generator/locales/it';
import * as querySchedulerEn from '../features/query-scheduler/locales/en';
import * as querySchedulerFr from '../features/query-scheduler/locales/fr';
import * as querySchedulerIt from '../features/query-scheduler/locales/it';
import * as routePlanningEn from '../features/route-planning/locales/en';
import * as routePlanningFr from '../features/route-planning/locales/fr';
import * as routePlanningIt from '../features/route-planning/locales/it';
import * as plannedRoutesEn from '../features/planned-routes/locales/en';
import * as plannedRoutesFr from '../features/planned-routes/locales/fr';
import * as plannedRoutesIt from '../features/planned-routes/locales/it';
import * as myDayEn from '../features/my-day/locales/en';
import * as myDayFr from '../features/my-day/locales/fr';
import * as myDayIt from '../features/my-day/locales/it';
import * as operatorSettingsEn from '../features/operator-settings/locales/en';
import * as operatorSettingsFr from '../features/operator-settings/locales/fr';
import * as operatorSettingsIt from '../features/operator-settings/locales/it';
import * as auditEn from '../features/audit/locales/en';
import * as auditFr from '../features/audit/locales/fr';
import * as auditIt from '../features/audit/locales/it';
import * as dataSourcesEn from '../features/data-sources/locales/en';
import * as dataSourcesFr from '../features/data-sources/locales/fr';
import * as dataSourcesIt from '../features/data-sources/locales/it';
import * as usersEn from '../features/users/locales/en';
import * as usersFr from '../features/users/locales/fr';
import * as usersIt from '../features/users/locales/it';
import * as settlementsEn from '../features/settlements/locales/en';
import * as settlementsFr from '../features/settlements/locales/fr';
import * as settlementsIt from '../features/settlements/locales/it';
import * as vatEn from '../features/vat/locales/en';
import * as vatFr from '../features/vat/locales/fr';
import * as vatIt from '../features/vat/locales/it';
import * as visitLedgerEn from '../features/visit-ledger/locales/en';
import * as visitLedgerFr from '../features/visit-ledger/locales/fr';
import * as visitLedgerIt from '../features/visit-ledger/locales/it';
import * as commonEn from './en';
import * as commonFr from './fr';
import * as commonIt from './it';
import areasEn from './areas-en';
import areasFr from './areas-fr';
import areasIt from './areas-it';
import type { Catalogue } from './i18n';
import { mergeCatalogues, type Tree } from './shape';

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

/** Each file set that owns strings: the shared one and one per feature. */
const owners: Record<string, Record<'en' | 'fr' | 'it', Tree>> = {
  common: { en: commonEn.en, fr: commonFr.fr, it: commonIt.it },
  users: { en: usersEn.en, fr: usersFr.fr, it: usersIt.it },
  fleet: { en: fleetEn.en, fr: fleetFr.fr, it: fleetIt.it },
  machines: { en: machinesEn.en, fr: machinesFr.fr, it: machinesIt.it },
  products: { en: productsEn.en, fr: productsFr.fr, it: productsIt.it },
  sales: { en: salesEn.en, fr: salesFr.fr, it: salesIt.it },
  dashboard: { en: dashboardEn.en, fr: dashboardFr.fr, it: dashboardIt.it },
  reportFilters: { en: reportFiltersEn.en, fr: reportFiltersFr.fr, it: reportFiltersIt.it },
  encashment: { en: encashmentEn.en, fr: encashmentFr.fr, it: encashmentIt.it },
  refillLog: { en: refillLogEn.en, fr: refillLogFr.fr, it: refillLogIt.it },
  inventory: { en: inventoryEn.en, fr: inventoryFr.fr, it: inventoryIt.it },
  transactionLog: { en: transactionLogEn.en, fr: transactionLogFr.fr, it: transactionLogIt.it },
  reportGenerator: { en: reportGeneratorEn.en, fr: reportGeneratorFr.fr, it: reportGeneratorIt.it },
  queryScheduler: { en: querySchedulerEn.en, fr: querySchedulerFr.fr, it: querySchedulerIt.it },
  routePlanning: { en: routePlanningEn.en, fr: routePlanningFr.fr, it: routePlanningIt.it },
  plannedRoutes: { en: plannedRoutesEn.en, fr: plannedRoutesFr.fr, it: plannedRoutesIt.it },
  myDay: { en: myDayEn.en, fr: myDayFr.fr, it: myDayIt.it },
  operatorSettings: { en: operatorSettingsEn.en, fr: operatorSettingsFr.fr, it: operatorSettingsIt.it },
  audit: { en: auditEn.en, fr: auditFr.fr, it: auditIt.it },
  dataSources: { en: dataSourcesEn.en, fr: dataSourcesFr.fr, it: dataSourcesIt.it },
  settlements: { en: settlementsEn.en, fr: settlementsFr.fr, it: settlementsIt.it },
  vat: { en: vatEn.en, fr: vatFr.fr, it: vatIt.it },
  visitLedger: { en: visitLedgerEn.en, fr: visitLedgerFr.fr, it: visitLedgerIt.it },
};

const merged = {
  en: mergeCatalogues([commonEn.en, areasEn]) as Catalogue,
  fr: mergeCatalogues([commonFr.fr, areasFr]),
  it: mergeCatalogues([commonIt.it, areasIt]),
};
const catalogues = { en: flatten(merged.en), fr: flatten(merged.fr), it: flatten(merged.it) };
const reference = Object.keys(catalogues.en).sort();

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
}

describe('translations per owner', () => {
  for (const [owner, files] of Object.entries(owners)) {
    const english = Object.keys(flatten(files.en)).sort();
    for (const language of ['fr', 'it'] as const) {
      it(`${owner}: ${language} has exactly the English keys`, () => {
        const keys = Object.keys(flatten(files[language])).sort();
        expect(english.filter((key) => !keys.includes(key)), 'missing').toEqual([]);
        expect(keys.filter((key) => !english.includes(key)), 'extra').toEqual([]);
      });
    }
  }

  it('no key is owned twice, and the merge keeps every key', () => {
    const all = Object.values(owners).flatMap((files) => Object.keys(flatten(files.en)));
    expect(all.filter((key, index) => all.indexOf(key) !== index)).toEqual([]);
    expect(all.sort()).toEqual(reference);
    expect(() => mergeCatalogues([{ a: { b: 'x' } }, { a: { b: 'y' } }])).toThrow('a.b');
  });
});

describe('translations', () => {
  for (const [language, catalogue] of Object.entries(catalogues)) {
    it(`${language} has exactly the English keys`, () => {
      const keys = Object.keys(catalogue).sort();
      expect(reference.filter((key) => !keys.includes(key)), 'missing').toEqual([]);
      expect(keys.filter((key) => !reference.includes(key)), 'extra').toEqual([]);
    });

    it(`${language} has no empty text and keeps the placeholders`, () => {
      for (const key of reference) {
        expect(catalogue[key]?.trim(), key).toBeTruthy();
        expect(placeholders(catalogue[key]), key).toEqual(placeholders(catalogues.en[key]));
      }
    });
  }

  it('every key the source code names exists', () => {
    const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../locales/**', '!../features/*/locales/**'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }) as Record<string, string>;
    const known = new Set(reference.map((key) => key.replace(/_(one|other)$/, '')));
    const missing: string[] = [];
    let seen = 0;
    for (const [file, text] of Object.entries(sources)) {
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z]+\.[a-zA-Z.]+)'/g)) {
        seen += 1;
        if (!known.has(match[1])) missing.push(`${file}: ${match[1]}`);
      }
      for (const match of text.matchAll(/(?:title|subheader|caption): '([a-zA-Z]+\.[a-zA-Z.]+)'/g)) {
        if (!known.has(match[1])) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
    expect(seen).toBeGreaterThan(100);
  });

  it('the register title is the one the spec gives', () => {
    expect(merged.en.auth.registerTitle).toBe('Manage the job more effectively with Minimal');
    expect(merged.en.app.needHelp).toBe('Need help?');
  });
});
