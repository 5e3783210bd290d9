import type { Translations } from './en';

export const it: Translations = {
  transactionLog: {
    at: 'Data e ora',
    machine: 'Macchina',
    location: 'Posizione',
    selection: 'Selezione',
    product: 'Prodotto',
    quantity: 'Quantità',
    revenue: 'Ricavo',
    revenueExclTax: 'Ricavo al netto IVA',
    payment: 'Pagamento',
    payments: { cash: 'Contanti', cashless: 'Cashless' },
    kpiTransactions: 'Transazioni',
    detail: 'Transazioni',
    noTransactions: 'Nessuna transazione in questo periodo',
    loadFailed: 'Non è stato possibile caricare i totali delle transazioni.',
  },
};
