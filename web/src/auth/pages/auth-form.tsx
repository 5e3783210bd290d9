import type { ReactNode } from 'react';
import { useFormState, type FieldValues } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Form, FormAlerts } from '../../components/form/form';
import type { ServerForm } from '../../components/form/use-server-form';
import { Page } from '../../components/page';
import type { I18nKey } from '../../locales/keys';
import { paths } from '../../routes/paths';
import { authErrorMessage } from '../server-messages';

/** What tells the public pages apart: their texts and the page each links to. */
interface PublicPage {
  /** The browser tab's title. */
  title: I18nKey;
  heading: I18nKey;
  headingComponent: 'h1' | 'h2';
  /** The question before the link to the other page ("No account?"). */
  prompt: I18nKey;
  other: string;
  otherLabel: I18nKey;
  submitLabel: I18nKey;
}

const PAGES = {
  login: {
    title: 'auth.signIn',
    heading: 'auth.loginTitle',
    headingComponent: 'h1',
    prompt: 'auth.noAccount',
    other: paths.auth.register,
    otherLabel: 'auth.getStarted',
    submitLabel: 'auth.signIn',
  },
  register: {
    title: 'auth.registerTitle',
    // The layout's brand panel holds the page's h1.
    heading: 'auth.registerHeading',
    headingComponent: 'h2',
    prompt: 'auth.haveAccount',
    other: paths.auth.login,
    otherLabel: 'auth.signIn',
    submitLabel: 'auth.createAccount',
  },
} as const satisfies Record<string, PublicPage>;

interface AuthFormProps<V extends FieldValues> {
  /** Which page; also the prefix of the test ids of its error (`-error`) and submit button (`-submit`). */
  page: keyof typeof PAGES;
  form: ServerForm<V>;
  /** Signs in or registers with the checked values; rejects on a failed request. */
  save: (values: V) => Promise<unknown>;
  /** The fields. */
  children: ReactNode;
}

/**
 * The form of a public page (sign-in, registration): heading, link to the other page (a `returnTo`
 * passed on), the fields and the submit button.
 */
export function AuthForm<V extends FieldValues>({ page, form, save, children }: AuthFormProps<V>) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const returnTo = searchParams.get('returnTo');
  const { title, heading, headingComponent, prompt, other, otherLabel, submitLabel } = PAGES[page];
  const otherHref = returnTo ? `${other}?${new URLSearchParams({ returnTo })}` : other;
  const submitting = useFormState({ control: form.control }).isSubmitting;
  const submit = form.submitWith(save, { message: (error) => authErrorMessage(error, t) });

  return (
    <Page title={t(title)}>
      <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
        <Box>
          <Typography variant="h5" component={headingComponent} gutterBottom>
            {t(heading)}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t(prompt)}{' '}
            <Link component={RouterLink} to={otherHref} variant="subtitle2">
              {t(otherLabel)}
            </Link>
          </Typography>
        </Box>
        <FormAlerts testId={`${page}-error`} />
        {children}
        <Button
          type="submit"
          size="large"
          variant="contained"
          color="inherit"
          loading={submitting}
          fullWidth
          data-testid={`${page}-submit`}
          sx={{ bgcolor: 'text.primary', color: 'background.paper', '&:hover': { bgcolor: 'text.secondary' } }}
        >
          {t(submitLabel)}
        </Button>
      </Form>
    </Page>
  );
}
