// The form element, its alerts and the text field of the kit: all a small form (sign-in) needs.
// Fields take the field's `name` and show its message (the form's own, translated, or the
// server's) under it. Pickers and switches are in `fields.tsx`.
import type { ReactNode } from 'react';
import { FormProvider, useController, useFormState, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box, { type BoxProps } from '@mui/material/Box';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { PasswordField } from '../password-field';
import { problemText } from './problem';
import type { ServerForm } from './use-server-form';

/** The translated message at a field path (or of a group of fields), if any. */
export function useFieldMessage(name: string): string | undefined {
  const { t } = useTranslation();
  const { errors } = useFormState({ name: name as never });
  const error = name.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], errors) as
    | { message?: string; root?: { message?: string } }
    | undefined;
  return problemText(error?.message ?? error?.root?.message, t);
}

type FormProps<V extends FieldValues> = Omit<BoxProps<'form'>, 'onSubmit'> & {
  form: ServerForm<V>;
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  children: ReactNode;
};

/** The `<form>` of a server form: provides it to the fields, no browser validation. */
export function Form<V extends FieldValues>({ form, onSubmit, children, ...box }: FormProps<V>) {
  return (
    <FormProvider {...form}>
      <Box component="form" noValidate onSubmit={(event: React.FormEvent<HTMLFormElement>) => void onSubmit(event)} {...box}>
        {children}
      </Box>
    </FormProvider>
  );
}

/** The stale-record warning and the message of a failure no field took. */
export function FormAlerts({ stale, testId }: { stale?: boolean; testId?: string }) {
  const { t } = useTranslation();
  const message = useFieldMessage('root.server');
  return (
    <>
      {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
      {message ? (
        <Alert severity="error" data-testid={testId}>
          {message}
        </Alert>
      ) : null}
    </>
  );
}

type TextInputProps = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error'> & {
  name: string;
  /** Applied to what is typed (e.g. upper case for a currency). */
  normalize?: (value: string) => string;
  /** A password field with its show/hide button. */
  secret?: boolean;
};

/** A text (or password) field. */
export function TextInput({ name, normalize, secret, helperText, slotProps, ...props }: TextInputProps) {
  const { field } = useController({ name });
  const message = useFieldMessage(name);
  const Component = secret ? PasswordField : TextField;
  return (
    <Component
      autoComplete="off"
      fullWidth
      {...props}
      name={name}
      value={field.value ?? ''}
      onChange={(event) => field.onChange(normalize ? normalize(event.target.value) : event.target.value)}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={Boolean(message)}
      helperText={message ?? helperText}
      slotProps={slotProps}
    />
  );
}

