import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { Option } from '../../../api/types';
import { useScopeOptions, type ScopeKind } from '../api/filters';

interface Props {
  kind: ScopeKind;
  label: string;
  value: string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
}

/** Multi-select of clients, locations, machine tags or machines for scoped machine access. */
export function ScopePicker({ kind, label, value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const query = useScopeOptions(kind, !disabled);
  const options = query.data ?? [];
  const byId = new Map(options.map((option) => [option.id, option]));
  // Keep ids we cannot name yet (their list endpoint may not exist yet).
  const selected: Option[] = value.map((id) => byId.get(id) ?? { id, name: id });

  return (
    <Autocomplete
      multiple
      disabled={disabled}
      options={options}
      value={selected}
      loading={query.isLoading}
      noOptionsText={t('users.noOptions')}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      onChange={(_event, next) => onChange(next.map((option) => option.id))}
      renderInput={(params) => <TextField {...params} label={label} data-testid={`scope-${kind}`} />}
    />
  );
}
