import { useTranslation } from 'react-i18next';
import { TextInput } from '../../components/form/form';
import { useServerForm } from '../../components/form/use-server-form';
import { useAuth } from '../context';
import { loginSchema } from '../validation';
import { AuthForm } from './auth-form';

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const form = useServerForm({ schema: loginSchema, defaultValues: { email: '', password: '' } });

  // On success the guest guard sends the user on to `returnTo`.
  return (
    <AuthForm page="login" form={form} save={(values) => login({ email: values.email.trim(), password: values.password })}>
      <TextInput name="email" type="email" autoComplete="username" label={t('auth.email')} autoFocus />
      <TextInput name="password" secret autoComplete="current-password" label={t('auth.password')} />
    </AuthForm>
  );
}
