import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import SearchIcon from '@mui/icons-material/Search';
import { isApiError } from '../api/client';
import type { Option } from '../api/types';

/** The search box of a list toolbar. */
export function SearchField({ value, onChange, testId }: { value: string; onChange: (value: string) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      value={value}
      placeholder={t('common.search')}
      onChange={(event) => onChange(event.target.value)}
      sx={{ flexGrow: 1, minWidth: 200 }}
      slotProps={{
        htmlInput: { 'aria-label': t('common.search'), 'data-testid': testId },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

interface FilterSelectProps {
  label: string;
  allLabel: string;
  value: string;
  options: (Option | string)[];
  onChange: (value: string) => void;
  testId: string;
}

interface SmallSelectProps {
  label: string;
  value: unknown;
  /** The chosen item's `value`. */
  onChange: (value: unknown) => void;
  /** The `data-testid` of what shows the choice (the element a test opens the list with). */
  testId: string;
  helperText?: ReactNode;
  sx?: SxProps<Theme>;
  children: ReactNode;
}

/** A small select of a toolbar or a settings card; its items are the children. */
function SmallSelect({ label, value, onChange, testId, helperText, sx, children }: SmallSelectProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      helperText={helperText}
      sx={sx}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': testId } as object } }}
    >
      {children}
    </TextField>
  );
}

interface ChoiceFieldProps<T extends string | number> {
  label: string;
  /** The current choice (one of `choices`). */
  value: string | number;
  /** The fixed list to choose from, in its order. */
  choices: readonly T[];
  /** What a choice says. */
  labelOf: (choice: T) => ReactNode;
  onChange: (choice: T) => void;
  /** `data-testid` of the select; with `choiceTestIds`, `${testId}-${choice}` of each choice too. */
  testId: string;
  choiceTestIds?: boolean;
  helperText?: ReactNode;
  sx?: SxProps<Theme>;
}

/** One of a fixed list of choices (a schedule's repeat, a route's type). */
export function ChoiceField<T extends string | number>({ choices, labelOf, onChange, choiceTestIds, ...select }: ChoiceFieldProps<T>) {
  const choose = (value: unknown) => {
    const choice = choices.find((item) => String(item) === String(value));
    if (choice !== undefined) onChange(choice);
  };
  return (
    <SmallSelect {...select} onChange={choose}>
      {choices.map((choice) => (
        <MenuItem key={choice} value={choice} data-testid={choiceTestIds ? `${select.testId}-${choice}` : undefined}>
          {labelOf(choice)}
        </MenuItem>
      ))}
    </SmallSelect>
  );
}

/** A list filter: "All …" or one value (id + name options, or plain texts). */
export function FilterSelect({ label, allLabel, value, options, onChange, testId }: FilterSelectProps) {
  return (
    <SmallSelect label={label} value={value} onChange={(next) => onChange(String(next))} testId={testId} sx={{ minWidth: 180 }}>
      <MenuItem value="">{allLabel}</MenuItem>
      {options.map((option) =>
        typeof option === 'string' ? (
          <MenuItem key={option} value={option}>
            {option}
          </MenuItem>
        ) : (
          <MenuItem key={option.id} value={option.id}>
            {option.name}
          </MenuItem>
        ),
      )}
      {/* Keep a chosen value that is no longer offered selectable (MUI warns otherwise). */}
      {value && !options.some((option) => (typeof option === 'string' ? option : option.id) === value) ? (
        <MenuItem value={value}>{value}</MenuItem>
      ) : null}
    </SmallSelect>
  );
}

interface FreeSoloProps {
  name: string;
  label: string;
  value: string;
  options: string[];
  onChange: (value: string) => void;
  error?: string;
  helperText?: ReactNode;
  required?: boolean;
  loading?: boolean;
}

/** A text field suggesting the values already in use (free-solo Autocomplete). */
export function FreeSoloField({ name, label, value, options, onChange, error, helperText, required, loading }: FreeSoloProps) {
  return (
    <Autocomplete
      freeSolo
      options={options}
      value={value}
      inputValue={value}
      loading={loading}
      onInputChange={(_event, next) => onChange(next)}
      onChange={(_event, next) => onChange(typeof next === 'string' ? next : '')}
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          required={required}
          error={Boolean(error)}
          helperText={error ?? helperText}
        />
      )}
    />
  );
}

/**
 * The option of an id: among the options, else among those already known (e.g. from the record,
 * before the options load), else named `name` (by default the id itself).
 */
export function optionOf(id: string, options: Option[], known: Option[] = [], name = id): Option {
  return options.find((option) => option.id === id) ?? known.find((option) => option.id === id) ?? { id, name };
}

interface OptionPickerProps {
  name: string;
  label: string;
  value: string;
  options: Option[];
  /** Names for ids that are not among the options (e.g. from the record). */
  known?: Option[];
  /** Name to show for the current value when it is not among the options (e.g. from the record). */
  currentName?: string | null;
  /** The placeholder while none is chosen. */
  noneLabel?: string;
  onChange: (id: string) => void;
  error?: string;
  loading?: boolean;
  testId: string;
  /** `small` in a list's toolbar, beside its other filters. */
  size?: 'small' | 'medium';
}

/** Single choice among id + name options, or none. */
export function OptionPicker({ name, label, value, options, known, currentName, noneLabel, onChange, error, loading, testId, size }: OptionPickerProps) {
  const { t } = useTranslation();
  const selected: Option | null = value ? optionOf(value, options, known, currentName || value) : null;
  return (
    <Autocomplete
      size={size}
      options={options}
      value={selected}
      loading={loading}
      noOptionsText={t('users.noOptions')}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      onChange={(_event, next) => onChange(next?.id ?? '')}
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          placeholder={noneLabel}
          error={Boolean(error)}
          helperText={error}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
        />
      )}
    />
  );
}

/** The text of a failed deletion: the server's reason for a 409 (still in use), else the generic text. */
export function deletionFailure(error: unknown, failed: string): string {
  return isApiError(error) && error.status === 409 && error.message ? `${failed}: ${error.message}` : failed;
}
