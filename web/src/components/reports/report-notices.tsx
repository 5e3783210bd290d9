import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { RetryAlert } from '../retry-alert';
import { failureText } from '../server-errors';

/** A part of a report that failed to load: the server's reason for refused filters (400), else `text`; and Retry. */
export function ReportFailure({ query, testId, text }: { query: { error: unknown; refetch: () => unknown }; testId: string; text: string }) {
  return (
    <RetryAlert testId={testId} onRetry={() => void query.refetch()}>
      {failureText(query.error, text)}
    </RetryAlert>
  );
}

/** Nothing happened in the span: say so, and what to try (`hint`: another period or fewer filters). */
export function EmptyReport({ testId, title, hint }: { testId: string; title: string; hint?: string }) {
  const { t } = useTranslation();
  return (
    <Alert severity="info" data-testid={testId}>
      <AlertTitle>{title}</AlertTitle>
      {hint ?? t('reports.emptyHint')}
    </Alert>
  );
}
