import type { Translations } from './en';

export const it: Translations = {
  dataPolicy: {
    calendar: 'Calendario',
    calendarHint: 'Impostato dalla configurazione del server: «oggi», «questo mese» e i periodi dei report sono date in questo fuso.',
    timeZone: 'Fuso orario dell’operatore',
    today: 'Oggi lì: {{date}}',
    leaving: 'Dati che escono dal sistema',
    leavingHint: 'Dove possono essere inviati i report programmati e quanto spesso può essere eseguita una query programmata.',
    mailDomains: 'Domini e-mail consentiti',
    mailDomainsPlaceholder: 'example.com o *.example.com, poi Invio',
    mailDomainsHint: 'I report programmati vanno agli utenti e agli indirizzi di questi domini; *.example.com consente i suoi sottodomini.',
    usersOnly: 'Nessuno: i report programmati vanno solo agli utenti.',
    invalidDomains_one: '{{domains}} non è un dominio: scrivi example.com, o *.example.com per i suoi sottodomini.',
    invalidDomains_other: '{{domains}} non sono domini: scrivi example.com, o *.example.com per i loro sottodomini.',
    minInterval: 'Intervallo minimo tra le esecuzioni di una query',
    minIntervalHint: 'Da 1 a 1440: una query programmata viene eseguita al massimo con questa frequenza.',
    minutes: 'minuti',
    updatedAt: 'Ultima modifica {{at}}',
    readOnly: 'Solo un amministratore di utenti e ruoli con accesso a tutte le macchine modifica questa politica.',
    saved: 'Politica dei dati salvata',
    saveFailed: 'Non è stato possibile salvare la politica dei dati.',
    loadFailed: 'Non è stato possibile caricare le impostazioni dell’operatore.',
  },
};
