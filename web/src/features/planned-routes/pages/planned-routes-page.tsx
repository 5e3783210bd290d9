import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import RouteIcon from '@mui/icons-material/AltRouteOutlined';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { RoutesTable } from '../components/routes-table';

/** /planning/planned-routes: the saved routes; a route opens its stops, picklist and reports. */
export default function PlannedRoutesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  return (
    <>
      <ScreenHeader
        action={
          can('planning.route_planning.list') ? (
            <Button variant="contained" startIcon={<RouteIcon />} onClick={() => navigate(paths.planning.routePlanning)} data-testid="plan-routes">
              {t('plannedRoutes.planRoutes')}
            </Button>
          ) : null
        }
      />
      <RoutesTable />
    </>
  );
}
