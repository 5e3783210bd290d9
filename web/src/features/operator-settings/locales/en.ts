import type { Shape } from '../../../locales/shape';

// The data-policy screen's strings (English, the reference).
export const en = {
  dataPolicy: {
    calendar: 'Calendar',
    calendarHint: 'Set by the server’s configuration: “today”, “this month” and the report periods are dates in this zone.',
    timeZone: 'Operator’s time zone',
    today: 'Today there: {{date}}',
    leaving: 'Data leaving the system',
    leavingHint: 'Where scheduled reports may be mailed, and how often a scheduled query may run.',
    mailDomains: 'Allowed mail domains',
    mailDomainsPlaceholder: 'example.com or *.example.com, then Enter',
    mailDomainsHint: 'Scheduled reports go to users and to addresses in these domains; *.example.com allows its subdomains.',
    usersOnly: 'None: scheduled reports go to users only.',
    invalidDomains_one: '{{domains}} is not a domain: write example.com, or *.example.com for its subdomains.',
    invalidDomains_other: '{{domains}} are not domains: write example.com, or *.example.com for its subdomains.',
    minInterval: 'Minimum interval between a query’s runs',
    minIntervalHint: '1 to 1440: a scheduled query runs at most this often.',
    minutes: 'minutes',
    updatedAt: 'Last changed {{at}}',
    readOnly: 'Only an administrator of users and roles with access to all machines changes this policy.',
    saved: 'Data policy saved',
    saveFailed: 'The data policy could not be saved.',
    loadFailed: 'The operator’s settings could not be loaded.',
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
