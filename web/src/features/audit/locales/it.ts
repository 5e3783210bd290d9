import type { Translations } from './en';

export const it: Translations = {
  auditTrail: {
    intro: 'Ogni volta che dei dati sono usciti dal sistema: esportazioni, esportazioni in background, report generati scaricati e report inviati per e-mail. Giorni in UTC; senza date, gli ultimi 30 giorni.',
    at: 'Quando',
    who: 'Chi',
    how: 'Come',
    what: 'Cosa',
    file: 'File',
    machines: 'Macchine',
    toWhom: 'A chi',
    rows: 'Righe',
    from: 'Dal (UTC)',
    to: 'Al (UTC)',
    allKinds: 'Ogni modo',
    allUsers: 'Tutti',
    goneUser: 'Un utente eliminato',
    allMachines: 'Tutte le macchine',
    someMachines_one: '{{formatted}} macchina',
    someMachines_other: '{{formatted}} macchine',
    taker: 'Scaricato',
    noRows: 'Nessun dato è uscito dal sistema in questi giorni',
    loadFailed: 'Non è stato possibile caricare le impostazioni dell’operatore.',
    kinds: {
      export: 'Esportazione',
      export_job: 'Esportazione in background',
      report_download: 'Report scaricato',
      mail: 'Report inviato per e-mail',
    },
    spanProblems: {
      date: 'Inserisci date reali',
      reversed: 'Il primo giorno viene dopo l’ultimo',
      tooLong: 'Al massimo 366 giorni alla volta',
    },
  },
};
