import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Typography from '@mui/material/Typography';
import type { SettlementImport } from '../../../api/types';
import { formatDateRange } from '../../../components/format';
import { reportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useImports } from '../api/settlements';
import { importHistory } from '../settlements-logic';

/** "PO-7 corrected by file-2.csv", "Corrects file-1.csv": the corrections a file made or had. */
function History({ row, all, t }: { row: SettlementImport; all: SettlementImport[]; t: TFunction }) {
  const lines = importHistory(row, all).map((entry) =>
    entry.kind === 'corrected_by' ? t('settlements.correctedBy', { payout: entry.payout, file: entry.file }) : t('settlements.corrects', { file: entry.file }),
  );
  if (lines.length === 0) return <span>—</span>;
  const text = lines.join(' · ');
  return (
    <Typography variant="body2" noWrap title={text} data-testid="settlement-import-history">
      {text}
    </Typography>
  );
}

/** The imported files, newest first, each with the corrections it made or that superseded it. */
export function ImportsHistory() {
  const { t, i18n } = useTranslation();
  const imports = useImports(true);
  const all = imports.data ?? [];
  const col = reportColumns<SettlementImport>(i18n.language);
  // The file and what corrected it first (the columns a 1280 px screen shows), then its figures.
  const columns: GridColDef<SettlementImport>[] = [
    col.dateTime('imported_at', t('settlements.importedAt')),
    col.text('file_name', t('settlements.file'), { minWidth: 170 }),
    { field: 'supersedes', headerName: t('settlements.history'), minWidth: 280, flex: 2, sortable: false, renderCell: ({ row }) => <History row={row} all={all} t={t} /> },
    col.text('date_from', t('settlements.days'), { minWidth: 150, valueGetter: (_value, row) => formatDateRange(row.date_from, row.date_to, i18n.language) }),
    col.text('payouts', t('settlements.payouts'), { minWidth: 150, sortable: false, valueGetter: (value: string[]) => value.join(', ') }),
    col.count('rows', t('settlements.rows')),
    col.money('gross_minor', t('settlements.settled')),
    col.money('fees_minor', t('settlements.fees')),
    col.money('net_minor', t('settlements.net')),
    col.text('processor', t('settlements.processor'), { minWidth: 120 }),
    col.text('imported_by_name', t('settlements.importedBy'), { minWidth: 120 }),
  ];
  return (
    <SummaryTable
      testId="settlement-imports"
      title={t('settlements.importsTitle')}
      subheader={t('settlements.importsHint')}
      rows={all}
      columns={columns}
      loading={imports.isFetching}
      noRowsLabel={t('settlements.noImports')}
      notice={imports.isError ? <ReportFailure query={imports} testId="settlement-imports-error" text={t('settlements.importsFailed')} /> : undefined}
    />
  );
}
