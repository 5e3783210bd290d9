import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldMessage } from '../../../components/form';
import { TypedChipsInput } from '../../../components/typed-chips-input';
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
  const domains: string[] = field.value ?? [];
  const add = (current: string[], text: string) => {
    const next = addDomains(current, text);
    return next.length !== current.length ? next : null;
  };

  return (
    <TypedChipsInput
      value={domains}
      onChange={field.onChange}
      add={add}
      chip={(domain) => (isMailDomain(domain) ? { color: 'default', variant: 'filled' } : { color: 'error', variant: 'outlined' })}
      name="mail_domains"
      inputRef={field.ref}
      label={t('dataPolicy.mailDomains')}
      placeholder={domains.length === 0 && !disabled ? t('dataPolicy.mailDomainsPlaceholder') : undefined}
      error={Boolean(message)}
      helperText={message ?? (domains.length === 0 ? t('dataPolicy.usersOnly') : t('dataPolicy.mailDomainsHint'))}
      testId="policy-domains"
      htmlInput={{ spellCheck: false }}
      disabled={disabled}
      onBlur={field.onBlur}
    />
  );
}
