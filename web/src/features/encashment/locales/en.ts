import type { Shape } from '../../../locales/shape';

// The encashment report's strings (English, the reference).
export const en = {
  encashment: {
    date: 'Date',
    machine: 'Machine',
    location: 'Location',
    bagNo: 'Bag no.',
    employee: 'Employee',
    cashBox: 'Cash box',
    billStacker: 'Bill stacker',
    collected: 'Cash collected',
    tubes: 'Value of tubes',
    ejected: 'Manually ejected coins',
    refilledCoins: 'Refilled coins',
    expected: 'Expected',
    overShort: 'Over / short',
    counted: 'Counted (audit)',
    countedOverShort: 'Over / short (audit)',
    collections: 'Collections',
    shorts: 'Shorts',
    shortsOf: '{{shorts}} of {{compared}}',
    comparedCaption: '{{compared}} compared with the sales',
    expectedCaption: 'Cash sales since each machine’s previous collection',
    shortsCaption: '{{shorts}} of {{compared}} compared collections came up short',
    byEmployee: 'Over / short by employee',
    byMachine: 'Over / short by machine',
    mostShortFirst: 'Most short first: one short proves nothing, a pattern does.',
    unknownEmployee: 'Unknown employee',
    noCollections: 'No collections in this period',
    notCompared: 'The machine’s first collection: nothing to compare with',
    shortBy: 'Short by {{amount}}',
    overBy: 'Over by {{amount}}',
    exact: 'Exact',
    loadFailed: 'The encashment totals could not be loaded.',
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
