import { useTranslation } from 'react-i18next';
import { useOperatorSettings } from '../../../api/operator-settings';
import { LoadingScreen } from '../../../components/loading-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { ScreenHeader } from '../../../components/screen-header';
import { PolicyForm } from '../components/policy-form';

/** /settings/data-policy: the operator's calendar and its policy on data leaving the system. */
export default function DataPolicyPage() {
  const { t } = useTranslation();
  const settings = useOperatorSettings({ fresh: true });

  let body;
  if (settings.data) {
    // A saved policy is a new version: the form starts again from it.
    body = <PolicyForm key={settings.data.version} settings={settings.data} />;
  } else if (settings.isError) {
    body = (
      <RetryAlert testId="policy-error" onRetry={() => void settings.refetch()}>
        {t('dataPolicy.loadFailed')}
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
