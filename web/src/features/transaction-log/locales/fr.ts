import type { Translations } from './en';

export const fr: Translations = {
  transactionLog: {
    at: 'Date et heure',
    machine: 'Machine',
    location: 'Emplacement',
    selection: 'Sélection',
    product: 'Produit',
    quantity: 'Quantité',
    revenue: 'Chiffre d’affaires',
    revenueExclTax: 'Chiffre d’affaires HT',
    payment: 'Paiement',
    payments: { cash: 'Espèces', cashless: 'Sans espèces' },
    kpiTransactions: 'Transactions',
    detail: 'Transactions',
    noTransactions: 'Aucune transaction sur cette période',
    loadFailed: 'Les totaux des transactions n’ont pas pu être chargés.',
  },
};
