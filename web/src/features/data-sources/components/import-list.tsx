import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import OpenIcon from '@mui/icons-material/VisibilityOutlined';
import type { HistoryImport } from '../../../api/types';
import { deletionFailure } from '../../../components/fields';
import { formatCount } from '../../../components/format';
import { actionsColumn } from '../../../components/reports/actions-column';
import { NO_FIGURE, reportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { RowAction } from '../../../components/reports/row-action';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useDeletion } from '../../../components/use-deletion';
import { useDeleteHistoryImport, useHistoryImports } from '../api/imports';
import { creatorOf, formatMegabytes, isRunning } from '../import-logic';
import { ImportStatusChip, NamedProgress, useReadingName } from './import-parts';

/** What an import came to, in a line: its result once booked, its rows and sales once read, else what arrived or why it failed. */
export function importSummary(item: HistoryImport, t: TFunction, language: string): string {
  const count = (value: number) => formatCount(value, language);
  if (item.result) return t('dataSources.imports.resultText', { stored: count(item.result.stored), already: count(item.result.already), skipped: count(item.result.skipped) });
  if (item.preview) return t('dataSources.imports.rowsSales', { rows: count(item.preview.rows), sales: count(item.preview.sales) });
  if (item.status === 'failed') return item.error || t('dataSources.imports.failedUnknown');
  return t('dataSources.imports.received', { size: formatMegabytes(item.bytes, language) });
}

interface Props {
  /** Opens an import (its progress, preview and booking). */
  onOpen: (item: HistoryImport) => void;
  /** An import was deleted. */
  onDeleted: (id: string) => void;
}

/** The imports, newest first: file, reading, status and progress, what it came to, who and when; open and delete. */
export function ImportsList({ onOpen, onDeleted }: Props) {
  const { t, i18n } = useTranslation();
  const imports = useHistoryImports();
  const readingName = useReadingName();
  const deletion = useDeletion<HistoryImport>(useDeleteHistoryImport(), {
    title: t('dataSources.imports.deleteImport'),
    content: (item) => t('dataSources.imports.deleteImportText', { file: item?.file_name ?? '' }),
    confirmLabel: t('common.delete'),
    deleted: t('dataSources.imports.importDeleted'),
    failed: (error) => deletionFailure(error, t('dataSources.imports.importDeleteFailed')),
    onDeleted: (item) => onDeleted(item.id),
  });
  const col = reportColumns<HistoryImport>(i18n.language);

  const columns: GridColDef<HistoryImport>[] = [
    col.text('file_name', t('dataSources.imports.file'), { minWidth: 180 }),
    col.text('mapping_name', t('dataSources.imports.reading'), { minWidth: 150, valueGetter: (_value, row) => readingName(row) }),
    { field: 'status', headerName: t('dataSources.imports.statusColumn'), minWidth: 150, renderCell: ({ row }) => <ImportStatusChip status={row.status} /> },
    {
      field: 'progress',
      headerName: t('dataSources.imports.progress'),
      type: 'number',
      minWidth: 150,
      renderCell: ({ row }) =>
        isRunning(row.status) ? (
          <NamedProgress value={row.progress} label={t('dataSources.imports.progressOf', { file: row.file_name })} text={t('dataSources.imports.percent', { progress: row.progress })} />
        ) : (
          NO_FIGURE
        ),
    },
    col.text('summary', t('dataSources.imports.summary'), { minWidth: 260, flex: 2, sortable: false, valueGetter: (_value, row) => importSummary(row, t, i18n.language) }),
    col.text('created_by', t('dataSources.imports.createdBy'), { minWidth: 130, valueGetter: (_value, row) => creatorOf(row) }),
    col.dateTime('created_at', t('dataSources.imports.createdAt')),
    actionsColumn<HistoryImport>(t('common.actions'), (row) => (
      <>
        <RowAction label={t('dataSources.imports.openImport')} name={row.file_name} icon={<OpenIcon fontSize="small" />} onClick={() => onOpen(row)} testId="import-open" />
        <RowAction label={t('common.delete')} name={row.file_name} icon={<DeleteIcon fontSize="small" />} color="error" onClick={() => deletion.ask(row)} testId="import-delete" />
      </>
    )),
  ];

  return (
    <>
      <SummaryTable
        testId="imports"
        title={t('dataSources.imports.listTitle')}
        subheader={t('dataSources.imports.listHint')}
        rows={imports.data ?? []}
        columns={columns}
        loading={imports.isFetching && !imports.data}
        noRowsLabel={t('dataSources.imports.noImports')}
        notice={imports.isError ? <ReportFailure query={imports} testId="imports-error" text={t('dataSources.imports.listFailed')} /> : undefined}
      />
      {deletion.dialog}
    </>
  );
}
