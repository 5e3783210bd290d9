import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import OpenIcon from '@mui/icons-material/VisibilityOutlined';
import type { HistoryImport } from '../../../api/types';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { deletionFailure } from '../../../components/fields';
import { formatCount } from '../../../components/format';
import { actionsColumn } from '../../../components/reports/actions-column';
import { NO_FIGURE, reportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { SummaryTable } from '../../../components/reports/summary-table';
import { toast } from '../../../components/snackbar';
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
  const remove = useDeleteHistoryImport();
  const readingName = useReadingName();
  const [deleting, setDeleting] = useState<HistoryImport | null>(null);
  const col = reportColumns<HistoryImport>(i18n.language);

  const runDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      onDeleted(deleting.id);
      toast.success(t('dataSources.imports.importDeleted'));
    } catch (error) {
      toast.error(deletionFailure(error, t('dataSources.imports.importDeleteFailed')));
    } finally {
      setDeleting(null);
    }
  };

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
        <Tooltip title={t('dataSources.imports.openImport')}>
          <IconButton aria-label={`${t('dataSources.imports.openImport')}: ${row.file_name}`} onClick={() => onOpen(row)} data-testid="import-open">
            <OpenIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('common.delete')}>
          <IconButton aria-label={`${t('common.delete')}: ${row.file_name}`} color="error" onClick={() => setDeleting(row)} data-testid="import-delete">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
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
      <ConfirmDialog
        open={deleting !== null}
        title={t('dataSources.imports.deleteImport')}
        content={t('dataSources.imports.deleteImportText', { file: deleting?.file_name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        onConfirm={() => void runDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
