import type { Shape } from '../../../locales/shape';

// The report screens' shared strings: the filter bar and its choices (English, the reference);
// merged into the app's catalogue in `locales/i18n.ts`.
export const en = {
  reports: {
    filters: 'Filters',
    period: 'Period',
    dateFrom: 'From',
    dateTo: 'To',
    groupBy: 'Group by',
    groupingPeriod: 'Grouping period',
    value: 'Value',
    clients: 'Clients',
    locations: 'Locations',
    regions: 'Regions',
    machineTags: 'Machine tags',
    machines: 'Machines',
    products: 'Products',
    productTags: 'Product tags',
    all: 'All',
    reset: 'Reset filters',
    employees: 'Employees',
    oneAtATime: 'One at a time',
    exportOnly: 'You may export this report; seeing its figures on screen needs another permission.',
    emptyHint: 'Choose another period or fewer filters.',
    noOptions: 'Nothing to choose',
    missingDates: 'Choose the first and the last day of the custom period.',
    datesReversed: 'The first day of the period comes after the last one.',
    periods: {
      yesterday: 'Yesterday',
      current_week: 'Current week',
      previous_week: 'Previous week',
      current_month: 'Current month',
      previous_month: 'Previous month',
      current_and_previous_month: 'Current and previous month',
      current_year: 'Current year',
      previous_year: 'Previous year',
      custom: 'Custom',
    },
    values: {
      sales: 'Sales',
      quantity: 'Quantity',
      sales_excl_tax: 'Sales excl. tax',
    },
    groupBys: {
      machine: 'Machine',
      location: 'Location',
      client: 'Client',
      product: 'Product',
      product_tag: 'Product tag',
      machine_tag: 'Machine tag',
    },
    groupingPeriods: {
      day: 'Day',
      week: 'Week',
      month: 'Month',
    },
  },
};

/** The shape the other languages must fill. */
export type Translations = Shape<typeof en>;
