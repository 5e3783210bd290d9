import type { Translations } from './en';

export const fr: Translations = {
  dataPolicy: {
    calendar: 'Calendrier',
    calendarHint: 'Défini par la configuration du serveur : « aujourd’hui », « ce mois-ci » et les périodes des rapports sont des dates dans ce fuseau.',
    timeZone: 'Fuseau horaire de l’opérateur',
    today: 'Aujourd’hui là-bas : {{date}}',
    leaving: 'Données sortant du système',
    leavingHint: 'Où les rapports programmés peuvent être envoyés, et à quelle fréquence une requête programmée peut s’exécuter.',
    mailDomains: 'Domaines de messagerie autorisés',
    mailDomainsPlaceholder: 'example.com ou *.example.com, puis Entrée',
    mailDomainsHint: 'Les rapports programmés vont aux utilisateurs et aux adresses de ces domaines ; *.example.com autorise ses sous-domaines.',
    usersOnly: 'Aucun : les rapports programmés ne vont qu’aux utilisateurs.',
    invalidDomains_one: '{{domains}} n’est pas un domaine : écrivez example.com, ou *.example.com pour ses sous-domaines.',
    invalidDomains_other: '{{domains}} ne sont pas des domaines : écrivez example.com, ou *.example.com pour leurs sous-domaines.',
    minInterval: 'Intervalle minimal entre les exécutions d’une requête',
    minIntervalHint: 'De 1 à 1440 : une requête programmée s’exécute au plus à cette fréquence.',
    minutes: 'minutes',
    updatedAt: 'Dernière modification {{at}}',
    readOnly: 'Seul un administrateur des utilisateurs et des rôles ayant accès à toutes les machines modifie cette politique.',
    saved: 'Politique des données enregistrée',
    saveFailed: 'La politique des données n’a pas pu être enregistrée.',
    loadFailed: 'Les paramètres de l’opérateur n’ont pas pu être chargés.',
  },
};
