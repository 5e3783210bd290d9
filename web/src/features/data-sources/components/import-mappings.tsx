import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { HistoryMapping } from '../../../api/types';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { deletionFailure } from '../../../components/fields';
import { actionsColumn } from '../../../components/reports/actions-column';
import { reportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { SummaryTable } from '../../../components/reports/summary-table';
import { toast } from '../../../components/snackbar';
import { useDeleteHistoryMapping, useHistoryMappings } from '../api/imports';
import { columnsText } from '../import-logic';
import { ImportMappingDialog } from './import-mapping-dialog';

/** The saved mappings: list, create, edit and delete. */
export function ImportMappings() {
  const { t, i18n } = useTranslation();
  const mappings = useHistoryMappings();
  const remove = useDeleteHistoryMapping();
  /** The mapping being edited; `null` for a new one; `undefined` when the dialog is closed. */
  const [editing, setEditing] = useState<HistoryMapping | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<HistoryMapping | null>(null);
  const col = reportColumns<HistoryMapping>(i18n.language);

  const runDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('dataSources.imports.mappingDeleted'));
    } catch (error) {
      toast.error(deletionFailure(error, t('dataSources.imports.mappingDeleteFailed')));
    } finally {
      setDeleting(null);
    }
  };

  const columns: GridColDef<HistoryMapping>[] = [
    col.text('name', t('dataSources.imports.mappingName'), { minWidth: 150 }),
    col.text('columns', t('dataSources.imports.columns'), { minWidth: 300, flex: 2, sortable: false, valueGetter: (_value, row) => columnsText(row) }),
    col.text('date_format', t('dataSources.imports.dateFormat'), { minWidth: 160 }),
    col.text('zone', t('dataSources.imports.zone'), { minWidth: 130 }),
    actionsColumn<HistoryMapping>(t('common.actions'), (row) => (
      <>
        <Tooltip title={t('common.edit')}>
          <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => setEditing(row)} data-testid="history-mapping-edit">
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('common.delete')}>
          <IconButton aria-label={`${t('common.delete')}: ${row.name}`} color="error" onClick={() => setDeleting(row)} data-testid="history-mapping-delete">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </>
    )),
  ];

  return (
    <>
      <SummaryTable
        testId="history-mappings"
        title={
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
            {t('dataSources.imports.mappingsTitle')}
            <Button variant="outlined" size="small" startIcon={<AddIcon />} onClick={() => setEditing(null)} data-testid="history-mapping-new">
              {t('dataSources.imports.newMapping')}
            </Button>
          </Box>
        }
        subheader={t('dataSources.imports.mappingsHint')}
        rows={mappings.data ?? []}
        columns={columns}
        loading={mappings.isFetching}
        noRowsLabel={t('dataSources.imports.noMappings')}
        notice={mappings.isError ? <ReportFailure query={mappings} testId="history-mappings-error" text={t('dataSources.imports.mappingsFailed')} /> : undefined}
      />
      {editing !== undefined ? <ImportMappingDialog key={editing ? `${editing.id}:${editing.version}` : 'new'} mapping={editing} onClose={() => setEditing(undefined)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title={t('dataSources.imports.deleteMapping')}
        content={t('dataSources.imports.deleteMappingText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        onConfirm={() => void runDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
