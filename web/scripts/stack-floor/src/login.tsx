import { Button, TextField, Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { post } from '@aws-amplify/api-rest';
const schema = z.object({ email: z.string().email(), password: z.string().min(8) });
export function Login() {
  const { t } = useTranslation();
  const { register, handleSubmit } = useForm({ resolver: zodResolver(schema) });
  return <form onSubmit={handleSubmit((v) => post({ apiName: 'a', path: '/auth/token/', options: { body: v } }))}><Stack><TextField label={t('hi')} {...register('email')} /><TextField type="password" {...register('password')} /><Button type="submit">Go</Button></Stack></form>;
}
