import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { HistoryImportMonth, HistoryImportPreview, HistoryImportUnmatched } from '../../../api/types';
import { formatCount, formatDate, formatPeriodDate } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { NO_FIGURE, reportColumns } from '../../../components/reports/report-columns';
import { SummaryTable, type SummaryTableProps } from '../../../components/reports/summary-table';
import type { I18nKey } from '../../../locales/keys';
import { errorRows, MAX_MONTHS, monthRowId, unmatchedRowId, type ErrorRow } from '../import-logic';
import { Figure, FIGURES_SX } from './import-parts';

/** A money column of the machine-months: minor units in the row's currency, with its decimals. */
function moneyColumn(field: keyof HistoryImportMonth, headerName: string, language: string): GridColDef<HistoryImportMonth> {
  return {
    field,
    headerName,
    type: 'number',
    minWidth: 120,
    valueFormatter: (value: number | null | undefined, row: HistoryImportMonth) =>
      value === null || value === undefined ? NO_FIGURE : formatMoney(value, row.currency, language, row.decimal_places),
  };
}

/** The preview's tables, by name: their title, hint and text when empty. */
const TABLES = {
  months: { title: 'dataSources.imports.monthsTitle', hint: 'dataSources.imports.monthsHint', none: 'dataSources.imports.noMonths' },
  unmatched: { title: 'dataSources.imports.unmatchedTitle', hint: 'dataSources.imports.unmatchedHint', none: 'dataSources.imports.noUnmatched' },
  errors: { title: 'dataSources.imports.errorsTitle', hint: 'dataSources.imports.errorsHint', none: 'dataSources.imports.noErrors' },
} as const satisfies Record<string, { title: I18nKey; hint: I18nKey; none: I18nKey }>;

interface PreviewTableProps<R extends GridValidRowModel> extends Pick<SummaryTableProps<R>, 'rows' | 'columns' | 'getRowId' | 'notice'> {
  name: keyof typeof TABLES;
  /** What the hint names (the errors': how many of how many are shown). */
  hintValues?: Record<string, string>;
}

/** A table of the preview (`import-<name>`), all its rows at hand: its texts those of `TABLES[name]`. */
function PreviewTable<R extends GridValidRowModel>({ name, hintValues, ...table }: PreviewTableProps<R>) {
  const { t } = useTranslation();
  const texts = TABLES[name];
  return <SummaryTable {...table} testId={`import-${name}`} title={t(texts.title)} subheader={t(texts.hint, hintValues)} loading={false} noRowsLabel={t(texts.none)} />;
}

/**
 * What booking a file would do: its counts (rows, sales, rows not sales, in error and unmatched,
 * the first and last day), `actions` under them (the booking), the sales by machine and month, the
 * unmatched values and the rows in error.
 */
export function ImportPreview({ preview, actions }: { preview: HistoryImportPreview; actions?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const count = (value: number) => formatCount(value, language);
  const day = (value: string | null) => (value ? formatDate(value, language) : NO_FIGURE);
  const monthCol = reportColumns<HistoryImportMonth>(language);
  const unmatchedCol = reportColumns<HistoryImportUnmatched>(language);
  const errorCol = reportColumns<ErrorRow>(language);

  const monthColumns: GridColDef<HistoryImportMonth>[] = [
    monthCol.text('machine_name', t('dataSources.imports.machine'), { minWidth: 170 }),
    monthCol.text('month', t('dataSources.imports.month'), { minWidth: 110, flex: 0.6, valueFormatter: (value: string) => formatPeriodDate(`${value}-01`, 'month', language) }),
    monthCol.count('vends', t('dataSources.imports.vends')),
    monthCol.count('quantity', t('dataSources.imports.quantity')),
    moneyColumn('revenue_minor', t('dataSources.imports.revenue'), language),
    moneyColumn('cash_minor', t('dataSources.imports.cash'), language),
    moneyColumn('cashless_minor', t('dataSources.imports.cashless'), language),
  ];
  const unmatchedColumns: GridColDef<HistoryImportUnmatched>[] = [
    unmatchedCol.text('kind', t('dataSources.imports.kind'), { minWidth: 170, valueGetter: (_value, row) => (row.kind in KIND ? t(`dataSources.imports.kinds.${row.kind}`) : row.kind) }),
    unmatchedCol.text('value', t('dataSources.imports.value'), { minWidth: 140 }),
    unmatchedCol.count('rows', t('dataSources.imports.rows')),
    unmatchedCol.count('first_line', t('dataSources.imports.firstLine'), { minWidth: 110 }),
  ];
  const errorColumns: GridColDef<ErrorRow>[] = [
    errorCol.count('line', t('dataSources.imports.line'), { minWidth: 80, flex: 0 }),
    errorCol.text('column', t('dataSources.imports.errorColumn'), { minWidth: 130, flex: 0.6 }),
    errorCol.text('message', t('dataSources.imports.message'), { minWidth: 260, flex: 2 }),
  ];

  return (
    <Box component="section" aria-labelledby="import-preview-title" sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} data-testid="import-preview">
      <Box>
        <Typography variant="h6" component="h3" id="import-preview-title">
          {t('dataSources.imports.previewTitle')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('dataSources.imports.previewHint')}
        </Typography>
      </Box>
      <Box component="dl" sx={FIGURES_SX}>
        <Figure label={t('dataSources.imports.rows')} testId="preview-rows">
          {count(preview.rows)}
        </Figure>
        <Figure label={t('dataSources.imports.sales')} testId="preview-sales">
          {count(preview.sales)}
        </Figure>
        <Figure label={t('dataSources.imports.notSales')} testId="preview-not-sales">
          {count(preview.not_sales)}
        </Figure>
        <Figure label={t('dataSources.imports.badRows')} tone={preview.bad_rows > 0 ? 'error' : undefined} testId="preview-bad-rows">
          {count(preview.bad_rows)}
        </Figure>
        <Figure label={t('dataSources.imports.unmatchedRows')} tone={preview.unmatched_rows > 0 ? 'warning' : undefined} testId="preview-unmatched-rows">
          {count(preview.unmatched_rows)}
        </Figure>
        <Figure label={t('dataSources.imports.firstDay')} testId="preview-first-day">
          {day(preview.first_day ?? null)}
        </Figure>
        <Figure label={t('dataSources.imports.lastDay')} testId="preview-last-day">
          {day(preview.last_day ?? null)}
        </Figure>
      </Box>
      {actions}
      <PreviewTable
        name="months"
        rows={preview.months}
        columns={monthColumns}
        getRowId={monthRowId}
        notice={
          preview.months.length >= MAX_MONTHS ? (
            <Alert severity="info" data-testid="import-months-capped">
              {t('dataSources.imports.monthsCapped', { limit: formatCount(MAX_MONTHS, language) })}
            </Alert>
          ) : undefined
        }
      />
      {preview.unmatched_rows > 0 || preview.unmatched.length > 0 ? (
        <PreviewTable
          name="unmatched"
          rows={preview.unmatched}
          columns={unmatchedColumns}
          getRowId={unmatchedRowId}
        />
      ) : null}
      {preview.bad_rows > 0 || preview.errors.length > 0 ? (
        <PreviewTable
          name="errors"
          hintValues={{ shown: count(preview.errors.length), total: count(preview.bad_rows) }}
          rows={errorRows(preview.errors)}
          columns={errorColumns}
        />
      ) : null}
    </Box>
  );
}

/** The kinds of unmatched rows the screen names (another is shown as it came). */
const KIND = { machine: true, product: true, audit_machine: true } as const;
