import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditNoteIcon from '@mui/icons-material/EditNoteOutlined';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatClock, formatCount, formatDateTime } from '../../../components/format';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { RetryAlert } from '../../../components/retry-alert';
import { toast } from '../../../components/snackbar';
import { useRemoveStop, useRouteStops } from '../api/routes';
import type { RouteStop } from '../../../api/types';
import { refusalText } from './refusal';

interface StopsTabProps {
  routeId: string;
  canRemove: boolean;
  canBook: boolean;
  onBook: (stop: RouteStop) => void;
}

/** The route's stops in order: where, when, how much, and whether it was visited; remove a stop or book its visit. */
export function StopsTab({ routeId, canRemove, canBook, onBook }: StopsTabProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const stops = useRouteStops(routeId);
  const remove = useRemoveStop(routeId);
  const [removing, setRemoving] = useState<RouteStop | null>(null);

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.machine_id);
      toast.success(t('plannedRoutes.stopRemoved', { machine: removing.machine_name }));
    } catch (error) {
      toast.error(refusalText(error, t('plannedRoutes.stopRemoveFailed')));
    } finally {
      setRemoving(null);
    }
  };

  if (stops.isError) return <RetryAlert testId="route-stops-error" onRetry={() => void stops.refetch()}>{t('plannedRoutes.stopsFailed')}</RetryAlert>;
  const rows = stops.data ?? [];
  return (
    <Card data-testid="route-stops">
      <Box sx={{ overflowX: 'auto' }}>
        <Table>
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>{t('plannedRoutes.machine')}</TableCell>
              <TableCell>{t('plannedRoutes.arrival')}</TableCell>
              <TableCell align="right">{t('plannedRoutes.units')}</TableCell>
              <TableCell>{t('plannedRoutes.visit')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {stops.isLoading ? (
              <TableRow>
                <TableCell colSpan={6}>{t('app.loading')}</TableCell>
              </TableRow>
            ) : null}
            {!stops.isLoading && rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={6}>{t('plannedRoutes.noStops')}</TableCell>
              </TableRow>
            ) : null}
            {rows.map((stop) => (
              <TableRow key={stop.machine_id} data-testid="route-stop" data-machine={stop.machine_id} data-visited={stop.visit ? 'yes' : 'no'}>
                <TableCell>{stop.order}</TableCell>
                <TableCell>
                  <Typography variant="subtitle2">{stop.machine_name}</Typography>
                  {stop.location_name ? (
                    <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                      {stop.location_name}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatClock(stop.arrival, language) || NO_FIGURE}</TableCell>
                <TableCell align="right">{formatCount(stop.units, language)}</TableCell>
                <TableCell>
                  {stop.visit ? (
                    <Chip
                      size="small"
                      color="success"
                      label={t('plannedRoutes.visitedBy', { at: formatDateTime(stop.visit.at, language), employee: stop.visit.employee_name })}
                    />
                  ) : (
                    <Chip size="small" variant="outlined" label={t('plannedRoutes.notVisited')} />
                  )}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {canBook && !stop.visit ? (
                    <Button size="small" variant="contained" startIcon={<EditNoteIcon />} onClick={() => onBook(stop)} data-testid={`stop-book-${stop.machine_id}`} sx={{ mr: 1 }}>
                      {t('plannedRoutes.bookVisit')}
                    </Button>
                  ) : null}
                  {canRemove && !stop.visit ? (
                    <Tooltip title={t('plannedRoutes.removeStop')}>
                      <IconButton color="error" aria-label={`${t('plannedRoutes.removeStop')}: ${stop.machine_name}`} onClick={() => setRemoving(stop)} data-testid={`stop-remove-${stop.machine_id}`}>
                        <RemoveIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <ConfirmDialog
        open={Boolean(removing)}
        title={t('plannedRoutes.removeStopTitle')}
        content={removing ? t('plannedRoutes.removeStopConfirm', { machine: removing.machine_name }) : null}
        confirmLabel={t('plannedRoutes.removeStop')}
        loading={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
