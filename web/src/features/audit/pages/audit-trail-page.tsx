import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import { useOperatorSettings } from '../../../api/operator-settings';
import { ForbiddenView } from '../../../components/error-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { ScreenHeader } from '../../../components/screen-header';
import { ExitsTable } from '../components/exits-table';

/**
 * /settings/audit-trail: what left the system (exports, background exports, generated reports
 * downloaded, reports mailed). For a fleet administrator only — whoever the operator's settings say
 * may change the policy; anyone else sees "Permission denied", as the server answers them 403.
 */
export default function AuditTrailPage() {
  const { t } = useTranslation();
  const settings = useOperatorSettings();

  if (settings.isError) {
    return (
      <RetryAlert testId="audit-settings-error" onRetry={() => void settings.refetch()}>
        {t('auditTrail.loadFailed')}
      </RetryAlert>
    );
  }
  if (!settings.data) return <LoadingScreen inline />;
  if (!settings.data.editable) return <ForbiddenView />;
  return (
    <>
      <ScreenHeader />
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3 }}>
        {t('auditTrail.intro')}
      </Typography>
      <ExitsTable />
    </>
  );
}
