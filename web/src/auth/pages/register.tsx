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
import { validateRegister, type RegisterValues } from '../validation';

export default function RegisterPage() {
  const { t } = useTranslation();
  const { register } = useAuth();
  const [searchParams] = useSearchParams();
  const [values, setValues] = useState<RegisterValues>({ firstName: '', lastName: '', email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof RegisterValues>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const returnTo = searchParams.get('returnTo');
  const loginHref = returnTo ? `${paths.auth.login}?${new URLSearchParams({ returnTo })}` : paths.auth.login;

  const change = (field: keyof RegisterValues) => (event: ChangeEvent<HTMLInputElement>) => {
    setValues((previous) => ({ ...previous, [field]: event.target.value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  const helper = (field: keyof RegisterValues) => {
    const problem = errors[field];
    return problem ? t(problem.key, problem.values) : undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRegister(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await register({
        email: values.email.trim(),
        password: values.password,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
      });
    } catch (error) {
      setServerError(authErrorMessage(error, t));
      setSubmitting(false);
    }
  };

  return (
    <Page title={t('auth.registerTitle')}>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
        <Box>
          <Typography variant="h5" component="h2" gutterBottom>
            {t('auth.registerHeading')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('auth.haveAccount')}{' '}
            <Link component={RouterLink} to={loginHref} variant="subtitle2">
              {t('auth.signIn')}
            </Link>
          </Typography>
        </Box>
        {serverError ? (
          <Alert severity="error" data-testid="register-error">
            {serverError}
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
          <TextField name="firstName" autoComplete="given-name" label={t('auth.firstName')} value={values.firstName} onChange={change('firstName')}
            error={Boolean(errors.firstName)} helperText={helper('firstName')} fullWidth autoFocus />
          <TextField name="lastName" autoComplete="family-name" label={t('auth.lastName')} value={values.lastName} onChange={change('lastName')}
            error={Boolean(errors.lastName)} helperText={helper('lastName')} fullWidth />
        </Box>
        <TextField name="email" type="email" autoComplete="email" label={t('auth.email')} value={values.email} onChange={change('email')}
          error={Boolean(errors.email)} helperText={helper('email')} fullWidth />
        <PasswordField name="password" autoComplete="new-password" label={t('auth.password')} value={values.password} onChange={change('password')}
          error={Boolean(errors.password)} helperText={helper('password')} fullWidth />
        <Button type="submit" size="large" variant="contained" color="inherit" loading={submitting} fullWidth data-testid="register-submit"
          sx={{ bgcolor: 'text.primary', color: 'background.paper', '&:hover': { bgcolor: 'text.secondary' } }}>
          {t('auth.createAccount')}
        </Button>
      </Box>
    </Page>
  );
}
