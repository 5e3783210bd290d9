// Form fields bound to the surrounding react-hook-form (`<Form>`): selects, switches and pickers.
// Each takes the field's `name` and shows its message under it.
import type { ReactNode } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { Option } from '../../api/types';
import { FreeSoloField, OptionPicker, optionOf } from '../fields';
import { useFieldMessage } from './form';

type SelectInputProps = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'select'> & {
  name: string;
  children: ReactNode;
  testId?: string;
};

/** A select among `<MenuItem>` children. */
export function SelectInput({ name, children, testId, helperText, ...props }: SelectInputProps) {
  const { field } = useController({ name });
  const message = useFieldMessage(name);
  return (
    <TextField
      fullWidth
      {...props}
      select
      name={name}
      value={field.value ?? ''}
      onChange={(event) => field.onChange(event.target.value)}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={Boolean(message)}
      helperText={message ?? helperText}
      slotProps={testId ? { select: { SelectDisplayProps: { 'data-testid': testId } as object } } : undefined}
    >
      {children}
    </TextField>
  );
}

/** An on/off switch with its label. */
export function SwitchInput({ name, label }: { name: string; label: ReactNode }) {
  const { field } = useController({ name });
  return (
    <FormControlLabel
      control={<Switch name={name} checked={Boolean(field.value)} onChange={(event) => field.onChange(event.target.checked)} />}
      label={label}
    />
  );
}

type FreeSoloInputProps = {
  name: string;
  label: string;
  options: string[];
  loading?: boolean;
  required?: boolean;
  helperText?: ReactNode;
  normalize?: (value: string) => string;
};

/** A text field suggesting the values already in use. */
export function FreeSoloInput({ name, normalize, ...props }: FreeSoloInputProps) {
  const { field } = useController({ name });
  const message = useFieldMessage(name);
  return (
    <FreeSoloField
      {...props}
      name={name}
      value={field.value ?? ''}
      onChange={(value) => field.onChange(normalize ? normalize(value) : value)}
      error={message}
    />
  );
}

type OptionInputProps = {
  name: string;
  label: string;
  options: Option[];
  /** Names for ids that are not among the options (e.g. from the record). */
  known?: Option[];
  currentName?: string | null;
  noneLabel?: string;
  loading?: boolean;
  testId: string;
};

/** One id among id + name options, or none (''). */
export function OptionInput({ name, ...props }: OptionInputProps) {
  const { field } = useController({ name });
  const message = useFieldMessage(name);
  return <OptionPicker {...props} name={name} value={field.value ?? ''} onChange={field.onChange} error={message} />;
}

type MultiOptionInputProps = {
  name: string;
  label: string;
  options: Option[];
  /** Names for chosen ids that are not among the options (e.g. from the record). */
  known?: Option[];
  loading?: boolean;
  testId?: string;
};

/** Several ids among id + name options (tags). */
export function MultiOptionInput({ name, label, options, known = [], loading, testId }: MultiOptionInputProps) {
  const { t } = useTranslation();
  const { field } = useController({ name });
  const message = useFieldMessage(name);
  const chosen: Option[] = ((field.value ?? []) as string[]).map((id) => optionOf(id, options, known));
  return (
    <Autocomplete
      multiple
      options={options}
      value={chosen}
      loading={loading}
      noOptionsText={t('users.noOptions')}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, value) => option.id === value.id}
      onChange={(_event, next) => field.onChange(next.map((option) => option.id))}
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          error={Boolean(message)}
          helperText={message}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, ...(testId ? { 'data-testid': testId } : {}) } }}
        />
      )}
    />
  );
}
