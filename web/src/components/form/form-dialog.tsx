import type { ReactNode } from 'react';
import { useFormState, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { I18nKey } from '../../locales/keys';
import { toast } from '../snackbar';
import { Form, FormAlerts } from './form';
import type { ServerForm } from './use-server-form';

interface ActionsProps {
  /** While saving, cancel is off and submit shows it is busy. */
  saving: boolean;
  onCancel: () => void;
  submitLabel: string;
  submitTestId: string;
  /** Nothing to submit yet. */
  submitDisabled?: boolean;
}

/** Cancel and submit, at the foot of a dialog's form. */
export function FormDialogActions({ saving, onCancel, submitLabel, submitTestId, submitDisabled }: ActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button variant="outlined" color="inherit" onClick={onCancel} disabled={saving}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" variant="contained" loading={saving} disabled={submitDisabled} data-testid={submitTestId}>
        {submitLabel}
      </Button>
    </DialogActions>
  );
}

interface FormDialogProps<V extends FieldValues> extends Omit<ActionsProps, 'saving' | 'onCancel'> {
  form: ServerForm<V>;
  /** Saves the checked values; rejects on a failed request (its reply is shown on the form). */
  save: (values: V) => Promise<unknown>;
  /** The toast once saved. */
  success?: string;
  /** The toast when saving failed. */
  failure?: string;
  /** Closes the dialog: once saved (`true`), or on cancel or a click beside it (not while saving). */
  onClose: (saved: boolean) => void;
  title: string;
  /** What an action on chosen records will do, above its fields. */
  intro?: string;
  maxWidth: DialogProps['maxWidth'];
  /** On the form (a record's dialog). */
  testId?: string;
  /** On the content (an action's dialog). */
  contentTestId?: string;
  /** The fields. */
  children: ReactNode;
}

/** A dialog holding a server form: title, alerts, the fields, cancel and submit; it saves, tells and closes. */
export function FormDialog<V extends FieldValues>({
  form,
  save,
  success,
  failure,
  onClose,
  title,
  intro,
  maxWidth,
  testId,
  contentTestId,
  children,
  ...actions
}: FormDialogProps<V>) {
  const saving = useFormState({ control: form.control }).isSubmitting;
  const cancel = () => onClose(false);
  const submit = form.submitWith(
    async (values) => {
      await save(values);
      if (success) toast.success(success);
      onClose(true);
    },
    { onError: failure ? () => toast.error(failure) : undefined },
  );

  return (
    <Dialog open onClose={saving ? undefined : cancel} fullWidth maxWidth={maxWidth}>
      <Form form={form} onSubmit={submit} data-testid={testId}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent
          // Without an introduction, room for the first field's label (the content has no top padding under a title).
          sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, ...(intro ? {} : { pt: '8px !important' }) }}
          data-testid={contentTestId}
        >
          {intro ? <DialogContentText>{intro}</DialogContentText> : null}
          <FormAlerts stale={form.stale} />
          {children}
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={cancel} {...actions} />
      </Form>
    </Dialog>
  );
}

/** An action on records chosen in a list: its texts (translation keys), width and test ids. */
export interface BulkAction {
  title: I18nKey;
  /** What it will do, given the count of chosen records. */
  intro: I18nKey;
  submit: I18nKey;
  success: I18nKey;
  failure: I18nKey;
  maxWidth: 'xs' | 'sm';
  /** `<testId>-dialog` on the content, `<testId>-submit` on the submit button. */
  testId: string;
}

interface BulkDialogProps<V extends FieldValues> extends Pick<FormDialogProps<V>, 'form' | 'save' | 'onClose' | 'submitDisabled' | 'children'> {
  action: BulkAction;
  /** How many records it applies to. */
  count: number;
}

/** The dialog of an action on chosen records (all or nothing): what it will do, its fields, cancel and submit. */
export function BulkDialog<V extends FieldValues>({ action, count, ...props }: BulkDialogProps<V>) {
  const { t } = useTranslation();
  return (
    <FormDialog
      {...props}
      title={t(action.title)}
      intro={t(action.intro, { count })}
      success={t(action.success)}
      failure={t(action.failure)}
      maxWidth={action.maxWidth}
      contentTestId={`${action.testId}-dialog`}
      submitLabel={t(action.submit)}
      submitTestId={`${action.testId}-submit`}
    />
  );
}
