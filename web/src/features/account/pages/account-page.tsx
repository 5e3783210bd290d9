// /account: the signed-in user's own page: who they are, their role and machine access, the UI
// language, and a password change that needs the current password (POST /api/users/me/password/).
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { api, isApiError } from '../../../api/client';
import type { ChangePasswordReply, ChangePasswordRequest, LanguageCode } from '../../../api/types';
import { useAuth } from '../../../auth/context';
import { Page } from '../../../components/page';
import { PasswordField } from '../../../components/password-field';
import { toast } from '../../../components/snackbar';
import { LANGUAGES } from '../../../locales/i18n';

type Field = 'current_password' | 'new_password' | 'confirm';

export default function AccountPage() {
  const { t, i18n } = useTranslation();
  const { user, switchLanguage, renewTokens } = useAuth();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const check = (): Partial<Record<Field, string>> => {
    const found: Partial<Record<Field, string>> = {};
    if (!current) found.current_password = t('account.required');
    if (!next) found.new_password = t('account.required');
    else if (next.length < 8) found.new_password = t('account.tooShort');
    if (next && confirm !== next) found.confirm = t('account.mismatch');
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const reply = await api.post<ChangePasswordReply>('/api/users/me/password/', { current_password: current, new_password: next } satisfies ChangePasswordRequest);
      const token = reply?.data?.token;
      if (token?.access) renewTokens?.(token.access, token.refresh ?? null);
      setCurrent('');
      setNext('');
      setConfirm('');
      toast.success(t('account.changed'));
    } catch (error) {
      if (isApiError(error) && error.status === 400 && Object.keys(error.errors).length > 0) {
        setErrors({
          current_password: error.errors.current_password?.join(' '),
          new_password: error.errors.new_password?.join(' '),
        });
      } else setFailure(isApiError(error) && error.status >= 400 && error.status < 500 ? error.message : t('account.failed'));
    } finally {
      setBusy(false);
    }
  };

  const language = LANGUAGES.some((item) => item.code === i18n.language) ? i18n.language : 'en';

  return (
    <Page title={t('account.title')}>
      <Stack spacing={3} sx={{ maxWidth: 720 }} data-testid="account-page">
        <Typography variant="h4" component="h1">
          {t('account.title')}
        </Typography>
        <Card>
          <CardHeader title={t('account.profile')} />
          <CardContent>
            <Stack spacing={1.5}>
              <Typography variant="subtitle1" data-testid="account-page-name">
                {user?.displayName || user?.name}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
                {user?.email}
              </Typography>
              <Typography variant="body2" data-testid="account-role">
                <strong>{t('account.role')}:</strong> {user?.role_name || t('account.noRole')}
              </Typography>
              <Typography variant="body2" data-testid="account-machines">
                <strong>{t('account.machines')}:</strong> {user?.access_all_machines ? t('account.allMachines') : t('account.someMachines')}
              </Typography>
              <TextField
                select
                size="small"
                label={t('account.language')}
                value={language}
                onChange={(event) => void switchLanguage(event.target.value as LanguageCode)}
                sx={{ maxWidth: 240 }}
                slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'account-language' } as object } }}
              >
                {LANGUAGES.map((item) => (
                  <MenuItem key={item.code} value={item.code} data-testid={`account-language-${item.code}`}>
                    {item.label}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
          </CardContent>
        </Card>
        <Card component="form" noValidate onSubmit={(event) => void submit(event)} data-testid="account-password-form">
          <CardHeader title={t('account.password')} subheader={t('account.passwordHint')} />
          <CardContent>
            <Stack spacing={2} sx={{ maxWidth: 400 }}>
              {(
                [
                  ['current_password', 'account.currentPassword', 'current-password', current, setCurrent, 'current_password'],
                  ['new_password', 'account.newPassword', 'new-password', next, setNext, 'new_password'],
                  ['confirm_password', 'account.confirmPassword', 'new-password', confirm, setConfirm, 'confirm'],
                ] as const
              ).map(([name, label, autoComplete, value, set, field]) => (
                <PasswordField
                  key={name}
                  label={t(label)}
                  name={name}
                  autoComplete={autoComplete}
                  value={value}
                  onChange={(event) => set(event.target.value)}
                  error={Boolean(errors[field])}
                  helperText={errors[field]}
                />
              ))}
              {failure ? (
                <Alert severity="error" data-testid="account-password-error">
                  {failure}
                </Alert>
              ) : null}
              <Button type="submit" variant="contained" loading={busy} data-testid="account-password-submit" sx={{ alignSelf: 'flex-start' }}>
                {t('account.changePassword')}
              </Button>
            </Stack>
          </CardContent>
        </Card>
      </Stack>
    </Page>
  );
}
