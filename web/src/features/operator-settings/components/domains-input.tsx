import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useFieldMessage } from '../../../components/form';
import { addDomains, isMailDomain, type PolicyValues } from '../policy-logic';

/**
 * The allowed mail domains as chips: Enter, a comma, a space or leaving the box adds what was
 * typed; a domain the server would refuse shows red, and the reasons (the form's or the server's)
 * show under the box.
 */
export function DomainsInput({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation();
  const { field } = useController<PolicyValues, 'mail_domains'>({ name: 'mail_domains' });
  const message = useFieldMessage('mail_domains');
  const [typed, setTyped] = useState('');
  const domains: string[] = field.value ?? [];
  const addTyped = (text: string) => {
    const next = addDomains(domains, text);
    if (next.length !== domains.length) field.onChange(next);
    setTyped('');
  };

  return (
    <Autocomplete
      multiple
      freeSolo
      disabled={disabled}
      options={[] as string[]}
      value={domains}
      inputValue={typed}
      onInputChange={(_event, next, reason) => {
        if (reason === 'reset') return;
        // A separator typed or pasted ends a domain.
        if (/[\s,;]/.test(next)) addTyped(next);
        else setTyped(next);
      }}
      onChange={(_event, next) => {
        field.onChange(next.reduce<string[]>((all, item) => addDomains(all, item), []));
        setTyped('');
      }}
      onBlur={() => {
        addTyped(typed);
        field.onBlur();
      }}
      renderValue={(selected, getItemProps) =>
        selected.map((domain, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          const valid = isMailDomain(domain);
          return <Chip key={key} size="small" color={valid ? 'default' : 'error'} variant={valid ? 'filled' : 'outlined'} label={domain} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          name="mail_domains"
          inputRef={field.ref}
          label={t('dataPolicy.mailDomains')}
          placeholder={domains.length === 0 && !disabled ? t('dataPolicy.mailDomainsPlaceholder') : undefined}
          error={Boolean(message)}
          helperText={message ?? (domains.length === 0 ? t('dataPolicy.usersOnly') : t('dataPolicy.mailDomainsHint'))}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'policy-domains', spellCheck: false },
            formHelperText: { 'data-testid': 'policy-domains-message' } as object,
          }}
        />
      )}
    />
  );
}
