import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import { useOperatorSettings } from '../../../api/operator-settings';
import type { Option } from '../../../api/types';
import { optionOf } from '../../../components/fields';
import { useFieldMessage } from '../../../components/form';
import { OptionChipsInput } from '../../../components/option-chips-input';
import { useGroupMessage } from '../../../components/report-definition/form-messages';
import { TypedChipsInput } from '../../../components/typed-chips-input';
import { useRecipientUsers } from '../api/filters';
import { cleanEmails, mailAllowed, splitEmails, type ScheduleFormValues } from '../schedule-logic';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Which addresses the operator lets reports be mailed to: its domains, or users only. */
function useDomainsHint(): { text: string | null; domains: string[] | null } {
  const { t } = useTranslation();
  const settings = useOperatorSettings();
  if (!settings.data) return { text: null, domains: null };
  const domains = settings.data.mail_domains;
  return {
    text: domains.length === 0 ? t('queryScheduler.usersOnly') : t('queryScheduler.allowedDomains', { domains: domains.join(', ') }),
    domains,
  };
}

/**
 * Who receives the file: users of the app (each gets a file cut to what they may see), and e-mail
 * addresses in the domains the operator allows (Enter, a comma or leaving the box adds what was
 * typed). The server's reasons show under the box they concern.
 */
export function RecipientsInput() {
  const { t } = useTranslation();
  const users = useRecipientUsers();
  const userIds = useController<ScheduleFormValues, 'recipients.user_ids'>({ name: 'recipients.user_ids' }).field;
  const emails = useController<ScheduleFormValues, 'recipients.emails'>({ name: 'recipients.emails' }).field;
  const usersMessage = useGroupMessage('recipients.user_ids');
  const emailsMessage = useGroupMessage('recipients.emails');
  // The recipients' own message (none at all, too many), not one of a box's.
  const message = useFieldMessage('recipients');
  const hint = useDomainsHint();

  const chosenUsers: Option[] = (userIds.value ?? []).map((id) => optionOf(id, users.data ?? []));
  const addresses: string[] = emails.value ?? [];
  const addEmails = (current: string[], text: string) => {
    const parts = splitEmails(text);
    return parts.length > 0 ? cleanEmails([...current, ...parts]) : null;
  };
  const chip = (email: string) => {
    const valid = EMAIL.test(email);
    // An address outside the allowed domains would be refused: it shows before saving.
    const allowed = !valid || hint.domains === null || mailAllowed(hint.domains, email);
    return {
      color: !valid ? 'error' : allowed ? 'default' : 'warning',
      variant: valid && allowed ? 'filled' : 'outlined',
      title: allowed ? undefined : t('queryScheduler.domainNotAllowed'),
    } as const;
  };

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }} data-testid="schedule-recipients">
      <OptionChipsInput
        options={users.data ?? []}
        value={chosenUsers}
        loading={users.isLoading}
        onChange={(next) => userIds.onChange(next.map((option) => option.id))}
        noOptionsText={t('reports.noOptions')}
        name="recipients.user_ids"
        label={t('queryScheduler.users')}
        error={Boolean(message || usersMessage)}
        helperText={usersMessage ?? t('queryScheduler.usersHint')}
        testId="schedule-users"
      />
      <TypedChipsInput
        value={addresses}
        onChange={emails.onChange}
        add={addEmails}
        chip={chip}
        name="recipients.emails"
        label={t('queryScheduler.emails')}
        placeholder={addresses.length === 0 ? t('queryScheduler.emailsPlaceholder') : undefined}
        error={Boolean(message || emailsMessage)}
        helperText={emailsMessage ?? hint.text}
        testId="schedule-emails"
        htmlInput={{ inputMode: 'email' }}
      />
      <FormHelperText error={Boolean(message)} sx={{ gridColumn: '1 / -1', mt: -1 }} data-testid="schedule-recipients-message">
        {message ?? t('queryScheduler.recipientsHint')}
      </FormHelperText>
    </Box>
  );
}
