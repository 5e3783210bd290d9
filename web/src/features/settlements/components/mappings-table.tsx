import type { Mapping } from '../../../api/types';
import { EditableTable, type EditableRecords } from '../../../components/reports/editable-table';
import { useDeleteMapping, useMappings } from '../api/settlements';
import { COLUMN_FIELDS } from '../settlements-logic';
import { MappingDialog } from './mapping-dialog';

/** The columns a mapping reads, "date · terminal_id · gross …". */
const columnsText = (mapping: Mapping) =>
  COLUMN_FIELDS.map((field) => mapping.columns[field])
    .filter(Boolean)
    .join(' · ');

/** The table of mappings: its texts and test ids. */
const MAPPINGS = {
  testId: 'settlement-mapping',
  title: 'settlements.mappingsTitle',
  name: 'settlements.name',
  hint: 'settlements.mappingsHint',
  add: 'settlements.newMapping',
  editTitle: 'settlements.editMapping',
  saved: 'settlements.mappingSaved',
  saveFailed: 'settlements.mappingSaveFailed',
  none: 'settlements.noMappingsList',
  failed: 'settlements.mappingsFailed',
  edit: 'settlements.edit',
  delete: 'settlements.delete',
  deleteTitle: 'settlements.deleteMapping',
  deleteText: 'settlements.deleteMappingText',
  deleted: 'settlements.mappingDeleted',
  deleteFailed: 'settlements.mappingDeleteFailed',
} satisfies EditableRecords;

/** The processors' mappings: list, create, edit and delete. */
export function MappingsTable() {
  return (
    <EditableTable
      records={MAPPINGS}
      query={useMappings(true)}
      remove={useDeleteMapping()}
      columns={(col, t) => [
        col.text('columns', t('settlements.columns'), { minWidth: 320, flex: 2, sortable: false, valueGetter: (_value, row) => columnsText(row) }),
        col.text('date_format', t('settlements.dateFormat'), { minWidth: 120 }),
        col.text('decimal_separator', t('settlements.decimalSeparator'), { minWidth: 120 }),
      ]}
      dialog={(mapping, frame) => <MappingDialog mapping={mapping} frame={frame} />}
    />
  );
}
