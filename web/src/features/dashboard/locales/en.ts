import type { Shape } from '../../../locales/shape';

// The dashboard's strings (English, the reference); merged into the app's catalogue in
// `locales/i18n.ts` under the same keys.
export const en = {
  dashboard: {
    welcome: 'Welcome back, {{name}}',
    intro: 'Your fleet at a glance. Reports, planning and settings are in the menu on the left.',
    today: 'Today',
    todaySpan: '{{date}}, compared with the same weekday last week ({{previous}})',
    month: 'This month',
    monthSpan: '{{from}} – {{to}}, compared with the same days of last month ({{previous}})',
    sameDayLastWeek: 'Same day last week: {{value}}',
    sameDaysLastMonth: 'Same days last month: {{value}}',
    noSalesToday: 'No sales yet today',
    noSalesMonth: 'No sales yet this month',
    topProducts: 'Top products this month',
    topMachines: 'Top machines this month',
    seeReport: 'Sales overview',
    noProduct: 'No product',
    units_one: '{{value}} unit',
    units_other: '{{value}} units',
    attention: 'Needs attention',
    nothingNeedsAttention: 'Nothing needs attention',
    machines_one: '{{value}} machine',
    machines_other: '{{value}} machines',
    reasons: {
      offline: 'Offline',
      sold_out: 'Sold out',
      low: 'Low stock',
      expiring: 'Expiring',
      cash_box_full: 'Cash box full',
      held_audits: 'Held audits',
    },
    findings: {
      offline: 'Offline for {{value}} h',
      never: 'Never reported',
      sold_out_one: 'Sold out: {{value}} selection',
      sold_out_other: 'Sold out: {{value}} selections',
      low_one: 'Low: {{value}} selection',
      low_other: 'Low: {{value}} selections',
      expiring_one: 'Expiring: {{value}} selection',
      expiring_other: 'Expiring: {{value}} selections',
      cash_box_full: 'Cash box: {{value}}',
      held_audits_one: '{{value}} audit held',
      held_audits_other: '{{value}} audits held',
    },
    loadFailed: 'The dashboard could not be loaded.',
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
