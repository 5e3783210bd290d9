import type { ReactNode } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { Option } from '../api/types';

interface OptionChipsInputProps<T extends Pick<Option, 'id' | 'name'>> {
  options: T[];
  value: T[];
  loading: boolean;
  onChange: (chosen: T[]) => void;
  label: string;
  noOptionsText: string;
  /** The input's `data-testid`. */
  testId: string;
  name?: string;
  placeholder?: string;
  helperText?: ReactNode;
  error?: boolean;
  /** The filter bar's form: small, one chip shown while the box is not focused. */
  compact?: boolean;
  /** The list closes after a choice (default: it stays open for the next one). */
  closeOnSelect?: boolean;
}

/** Any number of id + name options (users, refillers, a report filter's machines), chosen as chips. */
export function OptionChipsInput<T extends Pick<Option, 'id' | 'name'>>(props: OptionChipsInputProps<T>) {
  const { options, value, loading, onChange, label, noOptionsText, testId, name, placeholder, helperText, error, compact, closeOnSelect } = props;
  return (
    <Autocomplete
      multiple
      size={compact ? 'small' : undefined}
      limitTags={compact ? 1 : undefined}
      options={options}
      value={value}
      loading={loading}
      disableCloseOnSelect={!closeOnSelect}
      noOptionsText={noOptionsText}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      onChange={(_event, next) => onChange(next)}
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option.name} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          placeholder={placeholder}
          error={error}
          helperText={helperText}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
        />
      )}
    />
  );
}
