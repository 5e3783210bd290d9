import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import type { RouteStatus } from '../api/types';

const COLOR: Record<RouteStatus, 'info' | 'warning' | 'success' | 'default' | 'error'> = {
  planned: 'info',
  in_progress: 'warning',
  done: 'success',
  cancelled: 'default',
  expired: 'error',
};

/** A route's status: planned, in progress, done, cancelled or expired. */
export function StatusChip({ status }: { status: RouteStatus }) {
  const { t } = useTranslation();
  const known = status in COLOR;
  return (
    <Chip
      size="small"
      variant={status === 'cancelled' || status === 'expired' ? 'outlined' : 'filled'}
      color={known ? COLOR[status] : 'default'}
      label={known ? t(`plannedRoutes.statuses.${status}`) : status}
      data-testid="route-status"
      data-status={status}
    />
  );
}
