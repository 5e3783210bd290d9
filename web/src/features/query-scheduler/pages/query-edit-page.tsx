import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { isApiError } from '../../../api/client';
import { LoadingScreen } from '../../../components/loading-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { isModule } from '../../../components/report-definition/definition-logic';
import { useTask } from '../api/tasks';
import { ScheduleForm } from '../components/schedule-form';
import { emptyScheduleValues, valuesFromTask } from '../schedule-logic';

/** /settings/create-query/{module} and /settings/create-query/{module}/{queryId}. */
export default function QueryEditPage() {
  const { t } = useTranslation();
  const { module, queryId } = useParams();
  const task = useTask(queryId);

  let body;
  if (queryId) {
    if (task.data) {
      // The task's own module wins over the address's.
      body = <ScheduleForm key={`${task.data.id}:${task.data.version}`} module={task.data.module} task={task.data} initial={valuesFromTask(task.data)} />;
    } else if (task.isError) {
      body = (
        <RetryAlert testId="query-error" onRetry={() => void task.refetch()}>
          {isApiError(task.error) && task.error.status === 404 ? t('queryScheduler.notFound') : t('queryScheduler.loadFailed')}
        </RetryAlert>
      );
    } else {
      body = <LoadingScreen inline />;
    }
  } else if (isModule(module)) {
    body = <ScheduleForm key={module} module={module} initial={emptyScheduleValues(module)} />;
  } else {
    body = (
      <Alert
        severity="error"
        data-testid="query-unknown-module"
        action={
          <Button component={RouterLink} to={paths.settings.queryScheduler} color="inherit" size="small">
            {t('common.back')}
          </Button>
        }
      >
        {t('queryScheduler.unknownModule', { module: module ?? '' })}
      </Alert>
    );
  }

  return (
    <>
      <ScreenHeader />
      {body}
    </>
  );
}
