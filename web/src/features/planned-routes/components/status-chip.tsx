import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import { routeStatus, type RouteStatus } from '../route-logic';

const COLOR: Record<RouteStatus, 'info' | 'warning' | 'success' | 'default' | 'error'> = {
  planned: 'info',
  in_progress: 'warning',
  done: 'success',
  cancelled: 'default',
  expired: 'error',
};

/** A route's status: planned, in progress, done, cancelled or expired. */
export function StatusChip({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = routeStatus(status);
  return (
    <Chip
      size="small"
      variant={status === 'cancelled' || status === 'expired' ? 'outlined' : 'filled'}
      color={known ? COLOR[known] : 'default'}
      label={known ? t(`plannedRoutes.statuses.${known}`) : status}
      data-testid="route-status"
      data-status={status}
    />
  );
}
