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
import type { Mapping } from '../../../api/types';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { actionsColumn } from '../../../components/reports/actions-column';
import { reportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { SummaryTable } from '../../../components/reports/summary-table';
import { toast } from '../../../components/snackbar';
import { useDeleteMapping, useMappings } from '../api/settlements';
import { COLUMN_FIELDS } from '../settlements-logic';
import { MappingDialog } from './mapping-dialog';

/** The columns a mapping reads, "date · terminal_id · gross …". */
const columnsText = (mapping: Mapping) =>
  COLUMN_FIELDS.map((field) => mapping.columns[field])
    .filter(Boolean)
    .join(' · ');

/** The processors' mappings: list, create, edit and delete. */
export function MappingsTable() {
  const { t, i18n } = useTranslation();
  const mappings = useMappings(true);
  const remove = useDeleteMapping();
  /** The mapping being edited; `null` for a new one; `undefined` when the dialog is closed. */
  const [editing, setEditing] = useState<Mapping | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Mapping | null>(null);
  const col = reportColumns<Mapping>(i18n.language);

  const runDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('settlements.mappingDeleted'));
    } catch {
      toast.error(t('settlements.mappingDeleteFailed'));
    } finally {
      setDeleting(null);
    }
  };

  const columns: GridColDef<Mapping>[] = [
    col.text('name', t('settlements.name'), { minWidth: 150 }),
    col.text('columns', t('settlements.columns'), { minWidth: 320, flex: 2, sortable: false, valueGetter: (_value, row) => columnsText(row) }),
    col.text('date_format', t('settlements.dateFormat'), { minWidth: 120 }),
    col.text('decimal_separator', t('settlements.decimalSeparator'), { minWidth: 120 }),
    actionsColumn<Mapping>(t('common.actions'), (row) => (
      <>
        <Tooltip title={t('settlements.edit')}>
          <IconButton aria-label={`${t('settlements.edit')}: ${row.name}`} onClick={() => setEditing(row)} data-testid="settlement-mapping-edit">
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('settlements.delete')}>
          <IconButton aria-label={`${t('settlements.delete')}: ${row.name}`} color="error" onClick={() => setDeleting(row)} data-testid="settlement-mapping-delete">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </>
    )),
  ];

  return (
    <>
      <SummaryTable
        testId="settlement-mappings"
        title={
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
            {t('settlements.mappingsTitle')}
            <Button variant="outlined" size="small" startIcon={<AddIcon />} onClick={() => setEditing(null)} data-testid="settlement-mapping-new">
              {t('settlements.newMapping')}
            </Button>
          </Box>
        }
        subheader={t('settlements.mappingsHint')}
        rows={mappings.data ?? []}
        columns={columns}
        loading={mappings.isFetching}
        noRowsLabel={t('settlements.noMappingsList')}
        notice={mappings.isError ? <ReportFailure query={mappings} testId="settlement-mappings-error" text={t('settlements.mappingsFailed')} /> : undefined}
      />
      {editing !== undefined ? <MappingDialog mapping={editing} onClose={() => setEditing(undefined)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title={t('settlements.deleteMapping')}
        content={t('settlements.deleteMappingText', { name: deleting?.name ?? '' })}
        confirmLabel={t('settlements.delete')}
        loading={remove.isPending}
        onConfirm={() => void runDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
