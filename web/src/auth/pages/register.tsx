import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { TextInput } from '../../components/form/form';
import { useServerForm } from '../../components/form/use-server-form';
import { useAuth } from '../context';
import { registerSchema } from '../validation';
import { AuthForm } from './auth-form';

export default function RegisterPage() {
  const { t } = useTranslation();
  const { register } = useAuth();
  const form = useServerForm({ schema: registerSchema, defaultValues: { firstName: '', lastName: '', email: '', password: '' } });

  return (
    <AuthForm
      page="register"
      form={form}
      save={(values) =>
        register({
          email: values.email.trim(),
          password: values.password,
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
        })
      }
    >
      <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
        <TextInput name="firstName" autoComplete="given-name" label={t('auth.firstName')} autoFocus />
        <TextInput name="lastName" autoComplete="family-name" label={t('auth.lastName')} />
      </Box>
      <TextInput name="email" type="email" autoComplete="email" label={t('auth.email')} />
      <TextInput name="password" secret autoComplete="new-password" label={t('auth.password')} />
    </AuthForm>
  );
}
