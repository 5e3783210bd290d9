import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import { useOperatorSettings } from '../../../api/operator-settings';
import type { Option } from '../../../api/types';
import { optionOf } from '../../../components/fields';
import { useFieldMessage } from '../../../components/form';
import { useGroupMessage } from '../../../components/report-definition/form-messages';
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
  const [typed, setTyped] = useState('');

  const chosenUsers: Option[] = (userIds.value ?? []).map((id) => optionOf(id, users.data ?? []));
  const addresses: string[] = emails.value ?? [];
  const addTyped = (text: string) => {
    const parts = splitEmails(text);
    if (parts.length > 0) emails.onChange(cleanEmails([...addresses, ...parts]));
    setTyped('');
  };

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }} data-testid="schedule-recipients">
      <Autocomplete
        multiple
        options={users.data ?? []}
        value={chosenUsers}
        loading={users.isLoading}
        disableCloseOnSelect
        noOptionsText={t('reports.noOptions')}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, value) => option.id === value.id}
        onChange={(_event, next) => userIds.onChange(next.map((option) => option.id))}
        renderValue={(selected, getItemProps) =>
          selected.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return <Chip key={key} size="small" label={option.name} {...itemProps} />;
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            name="recipients.user_ids"
            label={t('queryScheduler.users')}
            error={Boolean(message || usersMessage)}
            helperText={usersMessage ?? t('queryScheduler.usersHint')}
            slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'schedule-users' } }}
          />
        )}
      />
      <Autocomplete
        multiple
        freeSolo
        options={[] as string[]}
        value={addresses}
        inputValue={typed}
        onInputChange={(_event, next, reason) => {
          if (reason === 'reset') return;
          // A separator typed or pasted ends an address.
          if (/[\s,;]/.test(next)) addTyped(next);
          else setTyped(next);
        }}
        onChange={(_event, next) => {
          emails.onChange(cleanEmails(next.flatMap((item) => splitEmails(item))));
          setTyped('');
        }}
        onBlur={() => addTyped(typed)}
        renderValue={(selected, getItemProps) =>
          selected.map((email, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            const valid = EMAIL.test(email);
            // An address outside the allowed domains would be refused: it shows before saving.
            const allowed = !valid || hint.domains === null || mailAllowed(hint.domains, email);
            return (
              <Chip
                key={key}
                size="small"
                color={!valid ? 'error' : allowed ? 'default' : 'warning'}
                variant={valid && allowed ? 'filled' : 'outlined'}
                label={email}
                title={allowed ? undefined : t('queryScheduler.domainNotAllowed')}
                {...itemProps}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            name="recipients.emails"
            label={t('queryScheduler.emails')}
            placeholder={addresses.length === 0 ? t('queryScheduler.emailsPlaceholder') : undefined}
            error={Boolean(message || emailsMessage)}
            helperText={emailsMessage ?? hint.text}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'schedule-emails', inputMode: 'email' },
              formHelperText: { 'data-testid': 'schedule-emails-message' } as object,
            }}
          />
        )}
      />
      <FormHelperText error={Boolean(message)} sx={{ gridColumn: '1 / -1', mt: -1 }} data-testid="schedule-recipients-message">
        {message ?? t('queryScheduler.recipientsHint')}
      </FormHelperText>
    </Box>
  );
}
