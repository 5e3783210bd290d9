import { useState, type ReactNode, type Ref } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Chip, { type ChipProps } from '@mui/material/Chip';
import TextField from '@mui/material/TextField';

interface TypedChipsInputProps {
  value: string[];
  onChange: (next: string[]) => void;
  /**
   * `current` with what `text` holds added (split at separators, cleaned, each once), or null when
   * `text` adds nothing.
   */
  add: (current: string[], text: string) => string[] | null;
  /** How an entry's chip shows (a refused one in red, a doubtful one in orange). */
  chip: (entry: string) => Pick<ChipProps, 'color' | 'variant' | 'title'>;
  name: string;
  label: string;
  placeholder?: string;
  error: boolean;
  helperText: ReactNode;
  /** `data-testid` of the input; `${testId}-message` is the text under it. */
  testId: string;
  /** More attributes of the input element (`inputMode`, `spellCheck`). */
  htmlInput?: Record<string, unknown>;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
  onBlur?: () => void;
}

/**
 * A list of typed entries (e-mail addresses, mail domains) as chips: Enter, a comma, a semicolon,
 * a space or leaving the box adds what was typed.
 */
export function TypedChipsInput(props: TypedChipsInputProps) {
  const { value, onChange, add, chip, name, label, placeholder, error, helperText, testId, htmlInput, inputRef, disabled, onBlur } = props;
  const [typed, setTyped] = useState('');
  const addTyped = (text: string) => {
    const next = add(value, text);
    if (next) onChange(next);
    setTyped('');
  };

  return (
    <Autocomplete
      multiple
      freeSolo
      disabled={disabled}
      options={[] as string[]}
      value={value}
      inputValue={typed}
      onInputChange={(_event, next, reason) => {
        if (reason === 'reset') return;
        // A separator typed or pasted ends an entry.
        if (/[\s,;]/.test(next)) addTyped(next);
        else setTyped(next);
      }}
      onChange={(_event, next) => {
        onChange(next.reduce<string[]>((all, item) => add(all, item) ?? all, []));
        setTyped('');
      }}
      onBlur={() => {
        addTyped(typed);
        onBlur?.();
      }}
      renderValue={(selected, getItemProps) =>
        selected.map((entry, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={entry} {...chip(entry)} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          inputRef={inputRef}
          label={label}
          placeholder={placeholder}
          error={error}
          helperText={helperText}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId, ...htmlInput },
            formHelperText: { 'data-testid': `${testId}-message` } as object,
          }}
        />
      )}
    />
  );
}
