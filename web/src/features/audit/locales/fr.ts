import type { Translations } from './en';

export const fr: Translations = {
  auditTrail: {
    intro: 'Chaque sortie de données du système : exports, exports en arrière-plan, rapports générés téléchargés et rapports envoyés par e-mail. Jours en UTC ; sans dates, les 30 derniers jours.',
    at: 'Quand',
    who: 'Qui',
    how: 'Comment',
    what: 'Quoi',
    file: 'Fichier',
    machines: 'Machines',
    toWhom: 'À qui',
    rows: 'Lignes',
    from: 'Du (UTC)',
    to: 'Au (UTC)',
    allKinds: 'Toutes les voies',
    allUsers: 'Tout le monde',
    goneUser: 'Un utilisateur supprimé',
    allMachines: 'Toutes les machines',
    someMachines_one: '{{formatted}} machine',
    someMachines_other: '{{formatted}} machines',
    taker: 'Téléchargé',
    noRows: 'Aucune donnée n’est sortie du système ces jours-là',
    loadFailed: 'Les paramètres de l’opérateur n’ont pas pu être chargés.',
    kinds: {
      export: 'Export',
      export_job: 'Export en arrière-plan',
      report_download: 'Rapport téléchargé',
      mail: 'Rapport envoyé par e-mail',
    },
    spanProblems: {
      date: 'Saisissez des dates réelles',
      reversed: 'Le premier jour est après le dernier',
      tooLong: 'Au plus 366 jours à la fois',
    },
  },
};
