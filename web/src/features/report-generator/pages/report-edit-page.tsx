import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/client';
import { LoadingScreen } from '../../../components/loading-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { ScreenHeader } from '../../../components/screen-header';
import { useTemplate } from '../api/templates';
import { ReportForm } from '../components/report-form';
import { emptyReportValues, valuesFromTemplate } from '../report-logic';

/** /report/create-report (a new report or template) and /report/create-report/{templateId} (a template). */
export default function ReportEditPage() {
  const { t } = useTranslation();
  const { templateId } = useParams();
  const template = useTemplate(templateId);

  let body;
  if (!templateId) {
    body = <ReportForm initial={emptyReportValues()} />;
  } else if (template.data) {
    body = <ReportForm key={`${template.data.id}:${template.data.version}`} template={template.data} initial={valuesFromTemplate(template.data)} />;
  } else if (template.isError) {
    body = (
      <RetryAlert testId="template-error" onRetry={() => void template.refetch()}>
        {isApiError(template.error) && template.error.status === 404 ? t('reportGenerator.templateNotFound') : t('reportGenerator.templateFailed')}
      </RetryAlert>
    );
  } else {
    body = <LoadingScreen inline />;
  }

  return (
    <>
      <ScreenHeader />
      {body}
    </>
  );
}
