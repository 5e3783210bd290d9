import type { Shape } from '../../../locales/shape';

// The transaction log's strings (English, the reference).
export const en = {
  transactionLog: {
    at: 'Date and time',
    machine: 'Machine',
    location: 'Location',
    selection: 'Selection',
    product: 'Product',
    quantity: 'Quantity',
    revenue: 'Revenue',
    revenueExclTax: 'Revenue excl. tax',
    payment: 'Payment',
    payments: { cash: 'Cash', cashless: 'Cashless' },
    kpiTransactions: 'Transactions',
    detail: 'Transactions',
    noTransactions: 'No transactions in this period',
    loadFailed: 'The transaction totals could not be loaded.',
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
