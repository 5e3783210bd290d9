import { deletionFailure } from '../../../components/fields';
import { EditableTable, type EditableRecords } from '../../../components/reports/editable-table';
import { useDeleteHistoryMapping, useHistoryMappings } from '../api/imports';
import { columnsText } from '../import-logic';
import { ImportMappingDialog } from './import-mapping-dialog';

/** The table of saved mappings: its texts and test ids. */
const MAPPINGS = {
  testId: 'history-mapping',
  title: 'dataSources.imports.mappingsTitle',
  name: 'dataSources.imports.mappingName',
  hint: 'dataSources.imports.mappingsHint',
  add: 'dataSources.imports.newMapping',
  editTitle: 'dataSources.imports.editMapping',
  saved: 'dataSources.imports.mappingSaved',
  saveFailed: 'dataSources.imports.mappingSaveFailed',
  none: 'dataSources.imports.noMappings',
  failed: 'dataSources.imports.mappingsFailed',
  edit: 'common.edit',
  delete: 'common.delete',
  deleteTitle: 'dataSources.imports.deleteMapping',
  deleteText: 'dataSources.imports.deleteMappingText',
  deleted: 'dataSources.imports.mappingDeleted',
  deleteFailed: 'dataSources.imports.mappingDeleteFailed',
  deleteFailure: deletionFailure,
} satisfies EditableRecords;

/** The saved mappings: list, create, edit and delete. */
export function ImportMappings() {
  return (
    <EditableTable
      records={MAPPINGS}
      query={useHistoryMappings()}
      remove={useDeleteHistoryMapping()}
      columns={(col, t) => [
        col.text('columns', t('dataSources.imports.columns'), { minWidth: 300, flex: 2, sortable: false, valueGetter: (_value, row) => columnsText(row) }),
        col.text('date_format', t('dataSources.imports.dateFormat'), { minWidth: 160 }),
        col.text('zone', t('dataSources.imports.zone'), { minWidth: 130 }),
      ]}
      dialog={(mapping, frame) => <ImportMappingDialog key={mapping ? `${mapping.id}:${mapping.version}` : 'new'} mapping={mapping} frame={frame} />}
    />
  );
}
