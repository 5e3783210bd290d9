import { useTranslation } from 'react-i18next';
import { useOperatorSettings } from '../../../api/operator-settings';
import { LoadedView } from '../../../components/loaded-view';
import { ScreenHeader } from '../../../components/screen-header';
import { PolicyForm } from '../components/policy-form';

/** /settings/data-policy: the operator's calendar and its policy on data leaving the system. */
export default function DataPolicyPage() {
  const { t } = useTranslation();
  const settings = useOperatorSettings({ fresh: true });

  return (
    <>
      <ScreenHeader />
      <LoadedView query={settings} errorTestId="policy-error" errorText={t('dataPolicy.loadFailed')}>
        {/* A saved policy is a new version: the form starts again from it. */}
        {(data) => <PolicyForm key={data.version} settings={data} />}
      </LoadedView>
    </>
  );
}
