import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { isApiError } from '../../../api/client';
import { useOperatorSettings } from '../../../api/operator-settings';
import { LoadingScreen } from '../../../components/loading-screen';
import { LoadedView } from '../../../components/loaded-view';
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
  // A new task's time zone is the operator's (the browser's when the settings cannot be read).
  const operator = useOperatorSettings();

  let body;
  if (queryId) {
    const failure = isApiError(task.error) && task.error.status === 404 ? t('queryScheduler.notFound') : t('queryScheduler.loadFailed');
    body = (
      <LoadedView query={task} errorTestId="query-error" errorText={failure}>
        {/* The task's own module wins over the address's. */}
        {(data) => <ScheduleForm key={`${data.id}:${data.version}`} module={data.module} task={data} initial={valuesFromTask(data)} />}
      </LoadedView>
    );
  } else if (isModule(module)) {
    body = operator.isPending ? (
      <LoadingScreen inline />
    ) : (
      <ScheduleForm key={module} module={module} initial={operator.data?.time_zone ? emptyScheduleValues(module, operator.data.time_zone) : emptyScheduleValues(module)} />
    );
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
