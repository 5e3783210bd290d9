import { useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/CancelOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DoneIcon from '@mui/icons-material/TaskAltOutlined';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import PlayIcon from '@mui/icons-material/PlayArrowOutlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { isApiError } from '../../../api/client';
import { useAuth } from '../../../auth/context';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ExportMenu } from '../../../components/export-menu';
import { formatDate, formatDateTime, formatDuration, formatKm } from '../../../components/format';
import { LoadingScreen } from '../../../components/loading-screen';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { RetryAlert } from '../../../components/retry-alert';
import { ScreenHeader } from '../../../components/screen-header';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { exportRoute, useChangeRouteStatus, useDeleteRoute, usePlannedRoute, useRoutePicklist, useRouteStops } from '../api/routes';
import type { PlannedRoute, RouteStop } from '../../../api/types';
import { ChangeEmployeeDialog } from '../components/change-employee-dialog';
import { PicklistTab } from '../components/picklist-tab';
import { PrintPicklist } from '../components/print-picklist';
import { refusalText } from '../components/refusal';
import { AccuracyTab, StockTab, VisitReportTab } from '../components/report-tabs';
import { StatusChip } from '../components/status-chip';
import { StopsTab } from '../components/stops-tab';
import { VisitFormDialog } from '../components/visit-form-dialog';
import { MOVE_TARGET, routeActions, routeType, type StatusMove } from '../route-logic';

const TABS = ['stops', 'picklist', 'visits', 'stock', 'accuracy'] as const;
type TabName = (typeof TABS)[number];

const MOVE_ICON: Record<StatusMove, ReactNode> = { start: <PlayIcon />, finish: <DoneIcon />, cancel: <CancelIcon /> };

function Facts({ route }: { route: PlannedRoute }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const type = routeType(route.route_type);
  const facts: [string, string, ReactNode][] = [
    ['status', t('common.status'), <StatusChip key="status" status={route.status} />],
    ['type', t('plannedRoutes.routeType'), type ? t(`plannedRoutes.routeTypes.${type}`) : route.route_type],
    ['visit-date', t('plannedRoutes.visitDate'), formatDate(route.visit_date, language)],
    ['employee', t('plannedRoutes.employee'), route.employee_name],
    ['distance', t('plannedRoutes.distance'), formatKm(route.distance_m, language) || NO_FIGURE],
    ['duration', t('plannedRoutes.duration'), formatDuration(route.duration_s, language) || NO_FIGURE],
    ['expires', t('plannedRoutes.expires'), formatDateTime(route.expires_at, language) || NO_FIGURE],
  ];
  return (
    <>
    {route.picklist_stale ? (
      <Alert severity="warning" data-testid="picklist-stale">
        {t('plannedRoutes.picklistStale', { date: formatDate(route.picklist_date, language) })}
      </Alert>
    ) : null}
    <Card sx={{ p: 2.5, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))', lg: 'repeat(7, minmax(0, 1fr))' } }} data-testid="route-facts">
      {facts.map(([key, label, value]) => (
        <Box key={key} data-testid={`route-${key}`}>
          <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
            {label}
          </Typography>
          <Typography variant="body2" component="div">
            {value}
          </Typography>
        </Box>
      ))}
    </Card>
    </>
  );
}

/** /planning/planned-routes/{id}: the route's stops, picklist and reports, its status moves and the visit form. */
export default function PlannedRoutePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const { user } = useAuth();
  const { routeId = '' } = useParams();
  const [query, setQuery] = useSearchParams();
  const route = usePlannedRoute(routeId);
  const stops = useRouteStops(routeId);
  const picklist = useRoutePicklist(routeId);
  const changeStatus = useChangeRouteStatus(routeId);
  const remove = useDeleteRoute();
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [changingEmployee, setChangingEmployee] = useState(false);
  const [booking, setBooking] = useState<RouteStop | null>(null);
  const [printing, setPrinting] = useState(false);
  const requested = query.get('tab');
  const tab: TabName = TABS.includes(requested as TabName) ? (requested as TabName) : 'stops';

  if (!route.data) {
    return (
      <>
        <ScreenHeader />
        {route.isError ? (
          <RetryAlert testId="route-error" onRetry={() => void route.refetch()}>
            {isApiError(route.error) && route.error.status === 404 ? t('plannedRoutes.notFound') : t('plannedRoutes.loadFailed')}
          </RetryAlert>
        ) : (
          <LoadingScreen inline />
        )}
      </>
    );
  }

  const current = route.data;
  const allowed = routeActions(can, current, user?.id);

  const move = async (which: StatusMove) => {
    setActionError(null);
    try {
      await changeStatus.mutateAsync({ status: MOVE_TARGET[which], version: current.version });
      toast.success(t(`plannedRoutes.moved.${which}`));
    } catch (error) {
      // A move the rules refuse (409) says why: on the page, and in a toast.
      const text = refusalText(error, t('plannedRoutes.statusFailed'));
      setActionError(text);
      toast.error(text);
    } finally {
      setConfirmCancel(false);
    }
  };

  const deleteRoute = async () => {
    setActionError(null);
    try {
      await remove.mutateAsync(current.id);
      toast.success(t('plannedRoutes.deleted'));
      navigate(paths.planning.plannedRoutes);
    } catch (error) {
      const text = refusalText(error, t('plannedRoutes.deleteFailed'));
      setActionError(text);
      toast.error(text);
      setConfirmDelete(false);
    }
  };

  const print = () => {
    flushSync(() => setPrinting(true));
    window.print();
    setPrinting(false);
  };

  const labels: Record<TabName, string> = {
    stops: t('plannedRoutes.tabs.stops'),
    picklist: t('plannedRoutes.tabs.picklist'),
    visits: t('plannedRoutes.tabs.visits'),
    stock: t('plannedRoutes.tabs.stock'),
    accuracy: t('plannedRoutes.tabs.accuracy'),
  };
  const bookingLines = booking ? (picklist.data?.find((stop) => stop.machine_id === booking.machine_id)?.lines ?? []) : [];

  return (
    <>
      <ScreenHeader title={current.name} />
      <Stack spacing={3}>
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }} data-testid="route-actions">
          {allowed.moves.map((which) => (
            <Button
              key={which}
              variant={which === 'cancel' ? 'outlined' : 'contained'}
              color={which === 'cancel' ? 'error' : 'primary'}
              startIcon={MOVE_ICON[which]}
              loading={changeStatus.isPending && changeStatus.variables?.status === MOVE_TARGET[which]}
              onClick={() => (which === 'cancel' ? setConfirmCancel(true) : void move(which))}
              data-testid={`route-${which}`}
            >
              {t(`plannedRoutes.moves.${which}`)}
            </Button>
          ))}
          {allowed.changeEmployee ? (
            <Button variant="outlined" color="inherit" startIcon={<PersonIcon />} onClick={() => setChangingEmployee(true)} data-testid="route-change-employee">
              {t('plannedRoutes.changeEmployee')}
            </Button>
          ) : null}
          <Button variant="outlined" color="inherit" startIcon={<PrintIcon />} onClick={print} disabled={!picklist.data || !stops.data} data-testid="route-print">
            {t('plannedRoutes.printPicklist')}
          </Button>
          {allowed.export ? <ExportMenu testId="route-export" onExport={(format) => exportRoute(current.id, format)} /> : null}
          {allowed.delete ? (
            <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setConfirmDelete(true)} data-testid="route-delete">
              {t('common.delete')}
            </Button>
          ) : null}
        </Box>
        {actionError ? (
          <Alert severity="error" onClose={() => setActionError(null)} data-testid="route-action-error">
            {actionError}
          </Alert>
        ) : null}
        <Facts route={current} />
        <Tabs
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          value={tab}
          onChange={(_event, value: TabName) =>
            setQuery(
              (previous) => {
                const next = new URLSearchParams(previous);
                if (value === 'stops') next.delete('tab');
                else next.set('tab', value);
                return next;
              },
              { replace: true },
            )
          }
        >
          {TABS.map((name) => (
            <Tab key={name} value={name} label={labels[name]} data-testid={`route-tab-${name}`} />
          ))}
        </Tabs>
        {tab === 'stops' ? <StopsTab routeId={current.id} canRemove={allowed.removeStop} canBook={allowed.bookVisit && Boolean(picklist.data)} onBook={setBooking} /> : null}
        {tab === 'picklist' ? <PicklistTab routeId={current.id} /> : null}
        {tab === 'visits' ? <VisitReportTab routeId={current.id} /> : null}
        {tab === 'stock' ? <StockTab routeId={current.id} /> : null}
        {tab === 'accuracy' ? <AccuracyTab routeId={current.id} /> : null}
      </Stack>
      <ConfirmDialog
        open={confirmCancel}
        title={t('plannedRoutes.cancelTitle')}
        content={t('plannedRoutes.cancelConfirm', { name: current.name })}
        confirmLabel={t('plannedRoutes.moves.cancel')}
        loading={changeStatus.isPending}
        onConfirm={() => void move('cancel')}
        onClose={() => setConfirmCancel(false)}
      />
      <ConfirmDialog
        open={confirmDelete}
        title={t('plannedRoutes.deleteTitle')}
        content={t('plannedRoutes.deleteConfirm', { name: current.name })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        onConfirm={() => void deleteRoute()}
        onClose={() => setConfirmDelete(false)}
      />
      {changingEmployee ? <ChangeEmployeeDialog route={current} onClose={() => setChangingEmployee(false)} /> : null}
      {booking ? <VisitFormDialog routeId={current.id} stop={booking} lines={bookingLines} onClose={() => setBooking(null)} /> : null}
      {printing && stops.data && picklist.data ? <PrintPicklist route={current} stops={stops.data} picklists={picklist.data} /> : null}
    </>
  );
}
