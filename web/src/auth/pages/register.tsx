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
import { registerSchema } from '../validation';

export default function RegisterPage() {
  const { t } = useTranslation();
  const { register } = useAuth();
  const [searchParams] = useSearchParams();
  const form = useServerForm({ schema: registerSchema, defaultValues: { firstName: '', lastName: '', email: '', password: '' } });
  const returnTo = searchParams.get('returnTo');
  const loginHref = returnTo ? `${paths.auth.login}?${new URLSearchParams({ returnTo })}` : paths.auth.login;
  const submitting = form.formState.isSubmitting;

  const submit = form.submitWith(
    (values) =>
      register({
        email: values.email.trim(),
        password: values.password,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
      }),
    { message: (error) => authErrorMessage(error, t) },
  );

  return (
    <Page title={t('auth.registerTitle')}>
      <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
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
        <FormAlerts testId="register-error" />
        <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
          <TextInput name="firstName" autoComplete="given-name" label={t('auth.firstName')} autoFocus />
          <TextInput name="lastName" autoComplete="family-name" label={t('auth.lastName')} />
        </Box>
        <TextInput name="email" type="email" autoComplete="email" label={t('auth.email')} />
        <TextInput name="password" secret autoComplete="new-password" label={t('auth.password')} />
        <Button type="submit" size="large" variant="contained" color="inherit" loading={submitting} fullWidth data-testid="register-submit"
          sx={{ bgcolor: 'text.primary', color: 'background.paper', '&:hover': { bgcolor: 'text.secondary' } }}>
          {t('auth.createAccount')}
        </Button>
      </Form>
    </Page>
  );
}
