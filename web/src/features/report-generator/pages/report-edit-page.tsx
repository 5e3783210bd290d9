import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/client';
import { LoadedView } from '../../../components/loaded-view';
import { ScreenHeader } from '../../../components/screen-header';
import { useTemplate } from '../api/templates';
import { ReportForm } from '../components/report-form';
import { emptyReportValues, valuesFromTemplate } from '../report-logic';

/** /report/create-report (a new report or template) and /report/create-report/{templateId} (a template). */
export default function ReportEditPage() {
  const { t } = useTranslation();
  const { templateId } = useParams();
  const template = useTemplate(templateId);

  const failure = isApiError(template.error) && template.error.status === 404 ? t('reportGenerator.templateNotFound') : t('reportGenerator.templateFailed');

  return (
    <>
      <ScreenHeader />
      {templateId ? (
        <LoadedView query={template} errorTestId="template-error" errorText={failure}>
          {(data) => <ReportForm key={`${data.id}:${data.version}`} template={data} initial={valuesFromTemplate(data)} />}
        </LoadedView>
      ) : (
        <ReportForm initial={emptyReportValues()} />
      )}
    </>
  );
}
