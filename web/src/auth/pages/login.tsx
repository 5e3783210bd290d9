import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Form, FormAlerts, TextInput } from '../../components/form/form';
import { useServerForm } from '../../components/form/use-server-form';
import { Page } from '../../components/page';
import { paths } from '../../routes/paths';
import { useAuth } from '../context';
import { authErrorMessage } from '../server-messages';
import { loginSchema } from '../validation';

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const [searchParams] = useSearchParams();
  const form = useServerForm({ schema: loginSchema, defaultValues: { email: '', password: '' } });
  const returnTo = searchParams.get('returnTo');
  const registerHref = returnTo ? `${paths.auth.register}?${new URLSearchParams({ returnTo })}` : paths.auth.register;
  // On success the guest guard sends the user on to `returnTo`.
  const submitting = form.formState.isSubmitting;

  const submit = form.submitWith((values) => login({ email: values.email.trim(), password: values.password }), {
    message: (error) => authErrorMessage(error, t),
  });

  return (
    <Page title={t('auth.signIn')}>
      <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
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
        <FormAlerts testId="login-error" />
        <TextInput name="email" type="email" autoComplete="username" label={t('auth.email')} autoFocus />
        <TextInput name="password" secret autoComplete="current-password" label={t('auth.password')} />
        <Button type="submit" size="large" variant="contained" color="inherit" loading={submitting} fullWidth data-testid="login-submit"
          sx={{ bgcolor: 'text.primary', color: 'background.paper', '&:hover': { bgcolor: 'text.secondary' } }}>
          {t('auth.signIn')}
        </Button>
      </Form>
    </Page>
  );
}
