import type { Shape } from '../../../locales/shape';

// The audit trail's strings (English, the reference).
export const en = {
  auditTrail: {
    intro: 'Every time data left the system: exports, background exports, generated reports downloaded and reports mailed. Days are UTC; without dates, the last 30 days.',
    at: 'When',
    who: 'Who',
    how: 'How',
    what: 'What',
    file: 'File',
    machines: 'Machines',
    toWhom: 'To whom',
    rows: 'Rows',
    from: 'From (UTC)',
    to: 'To (UTC)',
    allKinds: 'Every way',
    allUsers: 'Everyone',
    goneUser: 'A deleted user',
    allMachines: 'All machines',
    someMachines_one: '{{formatted}} machine',
    someMachines_other: '{{formatted}} machines',
    taker: 'Downloaded',
    noRows: 'Nothing left the system in these days',
    loadFailed: 'The operator’s settings could not be loaded.',
    kinds: {
      export: 'Export',
      export_job: 'Background export',
      report_download: 'Report downloaded',
      mail: 'Report mailed',
    },
    spanProblems: {
      date: 'Enter real dates',
      reversed: 'The first day comes after the last',
      tooLong: 'At most 366 days at once',
    },
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
