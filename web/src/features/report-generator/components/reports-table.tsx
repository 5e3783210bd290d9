import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArchiveIcon from '@mui/icons-material/ArchiveOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import UnarchiveIcon from '@mui/icons-material/UnarchiveOutlined';
import { ChoiceField } from '../../../components/fields';
import { formatCount, formatDateTime } from '../../../components/format';
import { ServerList, type RowAction } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
import { toast } from '../../../components/snackbar';
import { useReportPermission } from '../../../auth/use-permission';
import { downloadReport, useChangeReportStatus, useDeleteReport, useReports } from '../api/reports';
import type { Report } from '../../../api/types';
import { useModuleLabel } from '../../../components/report-definition/module-label';
import { downloadRefusal, reportActions } from '../report-logic';
import { ReportStatus } from './report-status';

const SORTABLE = { name: 'name', created_at: 'created_at' };
const FILTERS = ['archived'] as const;
const SHOWN = ['active', 'archived'] as const;

/** Public or private, as a small chip. */
export function VisibilityChip({ visibility }: { visibility: 'public' | 'private' }) {
  const { t } = useTranslation();
  return <Chip size="small" variant="outlined" color={visibility === 'public' ? 'info' : 'default'} label={t(`reportGenerator.visibility.${visibility}`)} />;
}

/** A scheduled report's recipients, the first few in the cell and all of them in its tooltip. */
function Recipients({ recipients }: { recipients: string[] }) {
  const { t } = useTranslation();
  const shown = recipients.slice(0, 2).join(', ');
  const more = recipients.length - 2;
  const text = more > 0 ? t('reportGenerator.recipientsMore', { recipients: shown, count: more }) : t('reportGenerator.recipientsShort', { recipients: shown });
  return (
    <Tooltip title={t('reportGenerator.recipientsAll', { recipients: recipients.join(', ') })}>
      <Typography variant="caption" noWrap component="div" sx={{ color: 'text.secondary' }} data-testid="report-recipients">
        {text}
      </Typography>
    </Tooltip>
  );
}

/**
 * The reports, newest first, active or archived: each one's status and, while it is prepared, its
 * progress (the list asks again every 2 s until none is); the file once done.
 */
export function ReportsTable() {
  const { t, i18n } = useTranslation();
  const allowed = useReportPermission('report_generator');
  const list = useListState(FILTERS);
  const archived = list.filters.archived === 'true';
  const reports = useReports({ ...list.params, archived });
  const changeStatus = useChangeReportStatus();
  const deleteReport = useDeleteReport();
  const moduleLabel = useModuleLabel();
  const language = i18n.language;

  const download = async (report: Report) => {
    try {
      await downloadReport(report);
    } catch {
      toast.error(t('reportGenerator.downloadFailed'));
    }
  };

  const setArchived = async (report: Report, next: boolean) => {
    try {
      await changeStatus.mutateAsync({ id: report.id, status: next ? 'archived' : 'active' });
      toast.success(next ? t('reportGenerator.archived') : t('reportGenerator.restored'));
    } catch {
      toast.error(t('reportGenerator.statusFailed'));
    }
  };

  const refusal = (report: Report) => downloadRefusal(report, t('reportGenerator.unavailable'));

  const columns: GridColDef<Report>[] = [
    {
      field: 'name',
      headerName: t('reportGenerator.name'),
      flex: 1.2,
      minWidth: 150,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {row.name}
          </Typography>
          <Typography variant="caption" noWrap component="div" sx={{ color: 'text.secondary' }}>
            {row.status === 'done'
              ? t('reportGenerator.fileRows', { format: t(`reportGenerator.formats.${row.format}`), rows: formatCount(row.rows, language), count: row.rows })
              : t(`reportGenerator.formats.${row.format}`)}
          </Typography>
          {row.recipients?.length ? <Recipients recipients={row.recipients} /> : null}
          {refusal(row) ? (
            <Typography variant="caption" component="div" sx={{ color: 'warning.main' }} data-testid="report-unavailable">
              {refusal(row)}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    { field: 'module', headerName: t('reportGenerator.module'), minWidth: 120, valueGetter: (_value, row) => moduleLabel(row.module) },
    { field: 'status', headerName: t('reportGenerator.statusTitle'), minWidth: 150, flex: 0.8, renderCell: ({ row }) => <ReportStatus report={row} /> },
    { field: 'created_at', headerName: t('reportGenerator.createdAt'), minWidth: 150, valueFormatter: (value: string) => formatDateTime(value, language) },
    { field: 'visibility', headerName: t('reportGenerator.visibilityTitle'), minWidth: 90, renderCell: ({ row }) => <VisibilityChip visibility={row.visibility} /> },
    { field: 'requested_by', headerName: t('reportGenerator.requestedBy'), minWidth: 110, valueGetter: (_value, row) => row.requested_by.name },
  ];

  // The active reports can be archived, the archived ones restored: each view has the one it needs.
  const actions: RowAction<Report>[] = [
    {
      label: t('reportGenerator.download'),
      icon: <DownloadIcon fontSize="small" />,
      show: (row) => reportActions(allowed, row).download,
      refusal,
      onClick: (row) => void download(row),
    },
    archived
      ? {
          label: t('reportGenerator.restore'),
          icon: <UnarchiveIcon fontSize="small" />,
          show: (row) => reportActions(allowed, row).restore,
          onClick: (row) => void setArchived(row, false),
        }
      : {
          label: t('reportGenerator.archive'),
          icon: <ArchiveIcon fontSize="small" />,
          show: (row) => reportActions(allowed, row).archive,
          onClick: (row) => void setArchived(row, true),
        },
  ];

  // A poll every 2 s is not a load the user asked for: the grid shows progress only for a new page or search.
  const query = { ...reports, isFetching: reports.isPending || reports.isPlaceholderData };

  return (
    <ServerList
      name="reports"
      list={list}
      query={query}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={archived ? t('reportGenerator.noArchivedReports') : t('reportGenerator.noReports')}
      rowLabel={(row) => row.name}
      autoRowHeight
      filters={
        <ChoiceField
          label={t('reportGenerator.show')}
          value={archived ? 'archived' : 'active'}
          choices={SHOWN}
          labelOf={(shown) => (shown === 'archived' ? t('reportGenerator.archivedReports') : t('reportGenerator.activeReports'))}
          onChange={(shown) => list.setFilter('archived', shown === 'archived' ? 'true' : '')}
          testId="reports-archived-filter"
          sx={{ minWidth: 160 }}
        />
      }
      actions={actions}
      deletion={
        allowed('delete_report')
          ? {
              title: t('reportGenerator.deleteReportTitle'),
              confirmText: ([row]) => t('reportGenerator.deleteReportConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => deleteReport.mutateAsync(row.id),
              pending: deleteReport.isPending,
              successText: () => t('reportGenerator.reportDeleted'),
            }
          : undefined
      }
    />
  );
}
