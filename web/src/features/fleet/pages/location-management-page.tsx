import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { LocationsTable } from '../components/locations-table';

/** /settings/location-management. */
export default function LocationManagementPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const action = can('settings.locations.new') ? (
    <Button component={RouterLink} to={paths.settings.createLocation} variant="contained" startIcon={<AddIcon />} data-testid="new-location">
      {t('locations.newLocation')}
    </Button>
  ) : null;

  return (
    <>
      <ScreenHeader action={action} />
      <LocationsTable />
    </>
  );
}
