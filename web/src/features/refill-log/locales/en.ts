import type { Shape } from '../../../locales/shape';

// The refill log's strings (English, the reference).
export const en = {
  refillLog: {
    date: 'Date',
    machine: 'Machine',
    location: 'Location',
    employee: 'Employee',
    source: 'Source',
    selection: 'Selection',
    product: 'Product',
    added: 'Added',
    removed: 'Removed',
    net: 'Net',
    lines: 'Lines',
    products: 'Products',
    linesCaption: 'in {{lines}} refill-log lines',
    byProduct: 'By product',
    detail: 'Line by line',
    noRefills: 'No refills in this period',
    span: 'Refills from {{from}} to {{to}}',
    loadFailed: 'The refill log could not be loaded.',
    visit: 'Refill of {{machine}}',
    visitProducts: 'Products of the visit',
    visitTotals: '{{added}} added, {{removed}} removed',
    visitFailed: 'The refill visit could not be loaded.',
    openVisit: 'Show the refill visit of {{product}}',
    sources: {
      manual: 'Manual',
      'fill-stock': 'Fill stock',
      'empty-stock': 'Empty stock',
      'copy-products': 'Copied products',
      machine: 'Reported by the machine',
    },
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
