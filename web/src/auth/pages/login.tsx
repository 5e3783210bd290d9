import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/page';
import { PasswordField } from '../../components/password-field';
import type { FieldErrors } from '../../components/validation';
import { paths } from '../../routes/paths';
import { useAuth } from '../context';
import { authErrorMessage } from '../server-messages';
import { validateLogin, type LoginValues } from '../validation';

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const [searchParams] = useSearchParams();
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof LoginValues>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const returnTo = searchParams.get('returnTo');
  const registerHref = returnTo ? `${paths.auth.register}?${new URLSearchParams({ returnTo })}` : paths.auth.register;

  const change = (field: keyof LoginValues) => (event: ChangeEvent<HTMLInputElement>) => {
    setValues((previous) => ({ ...previous, [field]: event.target.value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    setServerError(null);
    try {
      // On success the guest guard sends the user on to `returnTo`.
      await login({ email: values.email.trim(), password: values.password });
    } catch (error) {
      setServerError(authErrorMessage(error, t));
      setSubmitting(false);
    }
  };

  return (
    <Page title={t('auth.signIn')}>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
        <Box>
          <Typography variant="h5" component="h1" gutterBottom>
            {t('auth.loginTitle')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('auth.noAccount')}{' '}
            <Link component={RouterLink} to={registerHref} variant="subtitle2">
              {t('auth.getStarted')}
            </Link>
          </Typography>
        </Box>
        {serverError ? (
          <Alert severity="error" data-testid="login-error">
            {serverError}
          </Alert>
        ) : null}
        <TextField
          name="email"
          type="email"
          autoComplete="username"
          label={t('auth.email')}
          value={values.email}
          onChange={change('email')}
          error={Boolean(errors.email)}
          helperText={errors.email ? t(errors.email.key, errors.email.values) : undefined}
          autoFocus
          fullWidth
        />
        <PasswordField
          name="password"
          autoComplete="current-password"
          label={t('auth.password')}
          value={values.password}
          onChange={change('password')}
          error={Boolean(errors.password)}
          helperText={errors.password ? t(errors.password.key, errors.password.values) : undefined}
          fullWidth
        />
        <Button type="submit" size="large" variant="contained" color="inherit" loading={submitting} fullWidth data-testid="login-submit"
          sx={{ bgcolor: 'text.primary', color: 'background.paper', '&:hover': { bgcolor: 'text.secondary' } }}>
          {t('auth.signIn')}
        </Button>
      </Box>
    </Page>
  );
}
