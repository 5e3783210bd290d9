import type { Shape } from '../../../locales/shape';

// The VAT report's strings (English, the reference).
export const en = {
  vat: {
    span: 'Sales of {{span}}, each at the VAT rate its product had when it was sold',
    gross: 'Gross (VAT incl.)',
    net: 'Net (excl. VAT)',
    vat: 'VAT',
    quantity: 'Units sold',
    rate: 'VAT rate',
    exemptRate: '{{rate}} (exempt)',
    sold_one: '{{formatted}} unit sold',
    sold_other: '{{formatted}} units sold',
    taxable: 'Taxable sales',
    exempt: 'Exempt sales',
    exemptCaption: 'Sold at a 0 % rate: no VAT',
    netAndVat: 'Net {{net}} · VAT {{vat}}',
    legacy_one: '{{formatted}} sale was taken in before the ledger kept VAT rates: it is counted at its product’s current rate.',
    legacy_other: '{{formatted}} sales were taken in before the ledger kept VAT rates: they are counted at their product’s current rate.',
    byRate: 'By VAT rate',
    byRateHint: 'Highest rate first; the totals equal the sales overview’s to the cent.',
    groupBy: 'Group by',
    groups: {
      rate: 'Rate',
      client: 'Client',
      location: 'Location',
      month: 'Month',
    },
    byGroup: 'By {{group}} and VAT rate',
    byGroupHint: 'Each group’s sales at each rate.',
    noGroup: {
      rate: 'No rate',
      client: 'No client',
      location: 'No location',
      month: 'No month',
    },
    noSales: 'No sales in this period',
    loadFailed: 'The VAT report could not be loaded.',
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
