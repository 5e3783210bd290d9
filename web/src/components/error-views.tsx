import type { ReactNode } from 'react';
import { Link as RouterLink, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { I18nKey } from '../locales/keys';
import { isChunkLoadError } from '../routes/lazy';
import { paths } from '../routes/paths';

interface MessageProps {
  title: string;
  text: string;
  action: ReactNode;
  code?: string;
  testId?: string;
}

export function MessageView({ title, text, action, code, testId }: MessageProps) {
  return (
    <Box
      data-testid={testId}
      sx={{ py: 10, px: 3, mx: 'auto', maxWidth: 480, textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}
    >
      {code ? (
        <Typography aria-hidden sx={{ fontSize: 96, fontWeight: 800, lineHeight: 1, color: 'primary.main' }}>
          {code}
        </Typography>
      ) : null}
      <Typography variant="h3" component="h1">
        {title}
      </Typography>
      <Typography sx={{ color: 'text.secondary' }}>{text}</Typography>
      {action}
    </Box>
  );
}

/** The status pages: their code, test id and texts. */
const STATUSES = {
  403: { testId: 'forbidden', title: 'errors.forbiddenTitle', text: 'errors.forbiddenText' },
  404: { testId: 'not-found', title: 'errors.notFoundTitle', text: 'errors.notFoundText' },
} as const satisfies Record<number, { testId: string; title: I18nKey; text: I18nKey }>;

/** A page refused or not found: its code and texts, and a button to `home`. */
export function StatusView({ status, home }: { status: keyof typeof STATUSES; home: string }) {
  const { t } = useTranslation();
  const { testId, title, text } = STATUSES[status];
  return (
    <MessageView
      code={String(status)}
      testId={testId}
      title={t(title)}
      text={t(text)}
      action={
        <Button component={RouterLink} to={home} variant="contained" size="large">
          {t('errors.goHome')}
        </Button>
      }
    />
  );
}

export function ForbiddenView() {
  return <StatusView status={403} home={paths.dashboard.root} />;
}

/** A route that failed to render: a missing chunk offers a reload, anything else a way home. */
export function RouteErrorView() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isChunkLoadError(error)) {
    return (
      <MessageView
        testId="chunk-error"
        title={t('errors.chunkFailed')}
        text={t('errors.chunkHint')}
        action={
          <Button variant="contained" size="large" onClick={() => window.location.reload()}>
            {t('errors.reload')}
          </Button>
        }
      />
    );
  }
  return (
    <MessageView
      testId="route-error"
      title={t('errors.unexpected')}
      text={error instanceof Error ? error.message : t('errors.generic')}
      action={
        <Button variant="contained" size="large" onClick={() => window.location.assign(paths.dashboard.root)}>
          {t('errors.goHome')}
        </Button>
      }
    />
  );
}
