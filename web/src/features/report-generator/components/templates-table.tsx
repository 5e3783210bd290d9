import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import RunIcon from '@mui/icons-material/PlayArrowOutlined';
import { useReportPermission } from '../../../auth/use-permission';
import { formatDateTime } from '../../../components/format';
import { ServerList, type RowAction } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import type { ReportTemplate } from '../../../api/types';
import { useGeneratorModules, useTemplates } from '../../../components/report-definition/definition-api';
import { useModuleLabel } from '../../../components/report-definition/module-label';
import { useDeleteTemplate, useRunTemplate } from '../api/templates';
import { templateActions } from '../report-logic';
import { CopyTemplateDialog } from './copy-template-dialog';
import { VisibilityChip } from './reports-table';

const SORTABLE = { name: 'name', created_at: 'created_at' };
const FILTERS = ['module'] as const;

/**
 * The templates: run one (a report is queued and `onRun` shows the reports), edit or delete it;
 * each action only with its permission, edit and delete only on the caller's own (where the server
 * says `editable`); on others' templates, copy ("save as") instead, which opens the copy to edit.
 */
export function TemplatesTable({ onRun }: { onRun: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const allowed = useReportPermission('report_generator');
  const list = useListState(FILTERS);
  const templates = useTemplates({ ...list.params, ...list.filters });
  const modules = useGeneratorModules();
  const moduleLabel = useModuleLabel();
  const run = useRunTemplate();
  const remove = useDeleteTemplate();
  const [copying, setCopying] = useState<ReportTemplate | null>(null);

  const runTemplate = async (template: ReportTemplate) => {
    try {
      await run.mutateAsync(template.id);
      toast.success(t('reportGenerator.queued', { name: template.name }));
      onRun();
    } catch {
      toast.error(t('reportGenerator.runFailed'));
    }
  };

  const columns: GridColDef<ReportTemplate>[] = [
    { field: 'name', headerName: t('reportGenerator.name'), flex: 1.2, minWidth: 160 },
    { field: 'module', headerName: t('reportGenerator.module'), minWidth: 120, valueGetter: (_value, row) => moduleLabel(row.module) },
    { field: 'visibility', headerName: t('reportGenerator.visibilityTitle'), minWidth: 90, renderCell: ({ row }) => <VisibilityChip visibility={row.visibility} /> },
    { field: 'created_by', headerName: t('reportGenerator.createdBy'), minWidth: 110, valueGetter: (_value, row) => row.created_by.name },
    { field: 'created_at', headerName: t('reportGenerator.createdAt'), minWidth: 130, valueFormatter: (value: string) => formatDateTime(value, i18n.language) },
  ];

  // Only the actions the user has a key for take room in the Actions column.
  const actions: RowAction<ReportTemplate>[] = [];
  if (allowed('run')) {
    actions.push({ label: t('reportGenerator.run'), icon: <RunIcon fontSize="small" />, show: (row) => templateActions(allowed, row).run, onClick: (row) => void runTemplate(row) });
  }
  if (allowed('edit_template')) {
    actions.push({
      label: t('common.edit'),
      icon: <EditIcon fontSize="small" />,
      show: (row) => templateActions(allowed, row).edit,
      onClick: (row) => navigate(paths.report.editTemplate(row.id)),
    });
  }

  // Copying makes a new template: the `new` key, which the server's `copyable` also says.
  if (allowed('new')) {
    actions.push({
      label: t('reportGenerator.copy'),
      icon: <CopyIcon fontSize="small" />,
      show: (row) => templateActions(allowed, row).copy,
      onClick: (row) => setCopying(row),
    });
  }

  const moduleOptions = (modules.data ?? []).map((option) => ({ id: option.key, name: option.label }));

  return (
    <>
      <ServerList
        name="templates"
        list={list}
        query={templates}
        columns={columns}
        sortable={SORTABLE}
        noRowsLabel={t('reportGenerator.noTemplates')}
        rowLabel={(row) => row.name}
        filters={
          <ListFilter list={list} filter="module" label={t('reportGenerator.module')} allLabel={t('reportGenerator.allModules')} options={moduleOptions} testId="templates-module-filter" />
        }
        actions={actions}
        deletion={
          allowed('delete_template')
            ? {
                show: (row) => templateActions(allowed, row).delete,
                title: t('reportGenerator.deleteTemplateTitle'),
                confirmText: ([row]) => t('reportGenerator.deleteTemplateConfirm', { name: row?.name ?? '' }),
                remove: ([row]) => remove.mutateAsync(row.id),
                pending: remove.isPending,
                successText: () => t('reportGenerator.templateDeleted'),
              }
            : undefined
        }
      />
      {copying ? <CopyTemplateDialog template={copying} onClose={() => setCopying(null)} /> : null}
    </>
  );
}
