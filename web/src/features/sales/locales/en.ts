import type { Shape } from '../../../locales/shape';

// The sales overview's strings (English, the reference); merged into the app's catalogue in
// `locales/i18n.ts` under the same keys. The filter bar's are in `components/report-filters/locales/`.
export const en = {
  sales: {
    span: '{{from}} – {{to}}, compared with {{previousFrom}} – {{previousTo}}',
    kpiSales: 'Sales',
    kpiSalesExclTax: 'Sales excl. tax',
    kpiQuantity: 'Quantity',
    kpiCash: 'Cash',
    kpiCashless: 'Cashless',
    previous: 'Previous period: {{value}}',
    previousVs: 'vs {{range}}: {{value}}',
    comparedWith: 'vs {{range}}',
    changeUp: 'Up {{change}} on the previous period',
    changeDown: 'Down {{change}} on the previous period',
    changeFlat: 'No change on the previous period',
    changeNew: 'Nothing in the previous period',
    changeUpAgainst: 'Up {{change}} compared with {{against}}',
    changeDownAgainst: 'Down {{change}} compared with {{against}}',
    changeFlatAgainst: 'No change compared with {{against}}',
    changeNewAgainst: 'No sales {{against}}: nothing to compare with',
    noSales: 'No sales in this period',
    noSalesHint: 'Choose another period or fewer filters.',
    loadFailed: 'The sales could not be loaded.',
    overTime: 'Over time',
    byGroup: 'By {{group}}',
    currentPeriod: 'This period',
    previousPeriod: 'Previous period',
    overTimeSummary: 'Line chart from {{first}} to {{last}}: {{current}} this period against {{previous}} in the previous one, the highest {{highest}} ({{highestAt}}). Every figure is in the detail table.',
    overTimeBarSummary: 'Bar chart from {{first}} to {{last}}: {{current}} this period against {{previous}} in the previous one, the highest {{highest}} ({{highestAt}}). Every figure is in the detail table.',
    chartKind: 'Chart type',
    chartLine: 'Line',
    chartBars: 'Bars',
    byGroupSummary: 'Bar chart of {{count}} groups, the first {{name}} with {{current}} this period against {{previous}} in the previous one. Every figure is in the totals table.',
    others: 'Others',
    othersLine: 'All other groups together: {{current}} ({{compared}}: {{previous}})',
    totals: 'Totals by {{group}}',
    detail: 'Detail by period',
    group: 'Group',
    change: 'Change',
    noGroup: 'None',
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
