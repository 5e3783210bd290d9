import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { I18nKey } from '../../locales/keys';
import { useDeletion, type Removal } from '../use-deletion';
import { actionsColumn } from './actions-column';
import { QueryTable, type ListQuery } from './query-table';
import { reportColumns, type ReportColumns } from './report-columns';
import { RowAction } from './row-action';

/** A table of saved records: its texts (translation keys), test ids, and how a failed deletion is told. */
export interface EditableRecords {
  /**
   * `<testId>s` on the table (`<testId>s-error` on its failure), `<testId>-new`, `-edit` and
   * `-delete` on its buttons, `<testId>-form` and `-submit` on its dialog.
   */
  testId: string;
  title: I18nKey;
  /** The header of the first column, the records' names. */
  name: I18nKey;
  hint: I18nKey;
  /** The button that adds a record, and the title of its dialog. */
  add: I18nKey;
  /** The title of the dialog that edits a record. */
  editTitle: I18nKey;
  /** The toasts of a save. */
  saved: I18nKey;
  saveFailed: I18nKey;
  /** With no records. */
  none: I18nKey;
  /** The list could not be read. */
  failed: I18nKey;
  /** A row's buttons; `delete` also confirms. */
  edit: I18nKey;
  delete: I18nKey;
  /** The confirmation: its title and question (given the record's `name`). */
  deleteTitle: I18nKey;
  deleteText: I18nKey;
  /** The toasts of a deletion. */
  deleted: I18nKey;
  deleteFailed: I18nKey;
  /** The toast of a failed deletion, given its error and the text of `deleteFailed`: that text alone by default. */
  deleteFailure?: (error: unknown, failed: string) => string;
}

/** What an editable table gives its dialog's `FormDialog`: the title, toasts, submit and test ids, and its closing. */
export interface EditableDialogFrame {
  title: string;
  success: string;
  failure: string;
  testId: string;
  submitLabel: string;
  submitTestId: string;
  onClose: () => void;
}

interface EditableTableProps<R extends { id: string; name: string }> {
  records: EditableRecords;
  query: ListQuery<R>;
  remove: Removal;
  /** The records' columns after their name (the actions, edit and delete, come last), of the column builders. */
  columns: (col: ReportColumns<R>, t: TFunction) => GridColDef<R>[];
  /** The dialog that creates (`null`) or edits a record: its fields, in a `FormDialog` given `frame`. */
  dialog: (record: R | null, frame: EditableDialogFrame) => ReactNode;
}

/**
 * Saved records with a name (a processor's mappings, a file's readings): listed, created and
 * edited in a dialog (the feature's fields in the frame the table gives), deleted once confirmed.
 */
export function EditableTable<R extends { id: string; name: string }>({ records, query, remove, columns, dialog }: EditableTableProps<R>) {
  const { t, i18n } = useTranslation();
  const { testId, deleteFailure = (_error, failed) => failed } = records;
  /** The record being edited; `null` for a new one; `undefined` when the dialog is closed. */
  const [editing, setEditing] = useState<R | null | undefined>(undefined);
  const deletion = useDeletion<R>(remove, {
    title: t(records.deleteTitle),
    content: (record) => t(records.deleteText, { name: record?.name ?? '' }),
    confirmLabel: t(records.delete),
    deleted: t(records.deleted),
    failed: (error) => deleteFailure(error, t(records.deleteFailed)),
  });

  const frame = (record: R | null): EditableDialogFrame => ({
    title: t(record ? records.editTitle : records.add),
    success: t(records.saved),
    failure: t(records.saveFailed),
    testId: `${testId}-form`,
    submitLabel: t('common.save'),
    submitTestId: `${testId}-submit`,
    onClose: () => setEditing(undefined),
  });

  const col = reportColumns<R>(i18n.language);
  const actions = actionsColumn<R>(t('common.actions'), (row) => (
    <>
      <RowAction label={t(records.edit)} name={row.name} icon={<EditIcon fontSize="small" />} onClick={() => setEditing(row)} testId={`${testId}-edit`} />
      <RowAction label={t(records.delete)} name={row.name} icon={<DeleteIcon fontSize="small" />} color="error" onClick={() => deletion.ask(row)} testId={`${testId}-delete`} />
    </>
  ));

  return (
    <>
      <QueryTable
        testId={`${testId}s`}
        title={t(records.title)}
        action={
          <Button variant="outlined" size="small" startIcon={<AddIcon />} onClick={() => setEditing(null)} data-testid={`${testId}-new`}>
            {t(records.add)}
          </Button>
        }
        subheader={t(records.hint)}
        query={query}
        columns={[col.text('name', t(records.name), { minWidth: 150 }), ...columns(col, t), actions]}
        noRowsLabel={t(records.none)}
        failed={t(records.failed)}
      />
      {editing !== undefined ? dialog(editing, frame(editing)) : null}
      {deletion.dialog}
    </>
  );
}
