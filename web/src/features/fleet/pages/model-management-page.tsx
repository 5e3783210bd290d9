import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { ModelsTable } from '../components/models-table';

/** /settings/model-management. */
export default function ModelManagementPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const action = can('settings.models.new') ? (
    <Button component={RouterLink} to={paths.settings.createModel} variant="contained" startIcon={<AddIcon />} data-testid="new-model">
      {t('models.newModel')}
    </Button>
  ) : null;

  return (
    <>
      <ScreenHeader action={action} />
      <ModelsTable />
    </>
  );
}
