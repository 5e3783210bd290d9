import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { PlannedRoute } from '../../../api/types';
import { formatClock, formatCount, formatDate, formatDateTime, formatKm } from '../../../components/format';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { ServerList } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { paths } from '../../../routes/paths';
import { useEmployeeOptions, usePlannedRoutes } from '../api/routes';
import { ROUTE_STATUSES, routeType } from '../route-logic';
import { StatusChip } from './status-chip';

const FILTERS = ['status', 'employee', 'date_from', 'date_to'] as const;

/** An instant on two lines, its day over its time, so the list keeps its columns at 1280 px. */
function TwoLineInstant({ value }: { value: string | null }) {
  const { i18n } = useTranslation();
  if (!value) return <>{NO_FIGURE}</>;
  return (
    <Box sx={{ py: 1 }}>
      <Typography variant="body2">{formatDate(value, i18n.language)}</Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {formatClock(value, i18n.language)}
      </Typography>
    </Box>
  );
}

/** The planned routes, newest visit first: filters by status, visit days and employee; a row opens the route. */
export function RoutesTable() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigate = useNavigate();
  const list = useListState(FILTERS);
  const { page, page_size, search } = list.params;
  const routes = usePlannedRoutes({ page, page_size, search, ...list.filters });
  const employees = useEmployeeOptions();
  const typeLabel = (type: string) => {
    const known = routeType(type);
    return known ? t(`plannedRoutes.routeTypes.${known}`) : type;
  };

  const columns: GridColDef<PlannedRoute>[] = [
    {
      field: 'name',
      headerName: t('plannedRoutes.name'),
      minWidth: 140,
      flex: 1.3,
      renderCell: ({ row }) => (
        <Link component={RouterLink} to={paths.planning.plannedRoute(row.id)} underline="hover" color="inherit" onClick={(event) => event.stopPropagation()}>
          {row.name}
        </Link>
      ),
    },
    { field: 'route_type', headerName: t('plannedRoutes.routeType'), minWidth: 90, flex: 0.8, valueGetter: (_value, row) => typeLabel(row.route_type) },
    { field: 'visit_date', headerName: t('plannedRoutes.visitDate'), minWidth: 105, flex: 0.7, valueFormatter: (value: string) => formatDate(value, language) || NO_FIGURE },
    { field: 'created_at', headerName: t('plannedRoutes.created'), minWidth: 100, flex: 0.8, valueFormatter: (value: string) => formatDateTime(value, language), renderCell: ({ row }) => <TwoLineInstant value={row.created_at} /> },
    { field: 'expires_at', headerName: t('plannedRoutes.expires'), minWidth: 100, flex: 0.8, valueFormatter: (value: string | null) => formatDateTime(value, language), renderCell: ({ row }) => <TwoLineInstant value={row.expires_at} /> },
    { field: 'employee_name', headerName: t('plannedRoutes.employee'), minWidth: 100, flex: 0.9 },
    {
      field: 'stops',
      headerName: t('plannedRoutes.stopsVisited'),
      minWidth: 70,
      flex: 0.5,
      sortable: false,
      valueGetter: (_value, row) => `${formatCount(row.visited, language)} / ${formatCount(row.stops, language)}`,
    },
    { field: 'distance_m', headerName: t('plannedRoutes.distance'), minWidth: 75, flex: 0.5, valueFormatter: (value: number | null) => formatKm(value, language) || NO_FIGURE },
    { field: 'status', headerName: t('common.status'), minWidth: 100, flex: 0.7, renderCell: ({ row }) => <StatusChip status={row.status} /> },
  ];

  const dateFilter = (name: 'date_from' | 'date_to', label: string) => (
    <TextField
      type="date"
      size="small"
      label={label}
      value={list.filters[name]}
      onChange={(event) => list.setFilter(name, event.target.value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `planned-routes-${name.replace('_', '-')}` } }}
    />
  );

  const statuses = ROUTE_STATUSES.map((status) => ({ id: status, name: t(`plannedRoutes.statuses.${status}`) }));

  return (
    <ServerList
      name="planned-routes"
      list={list}
      query={routes}
      columns={columns}
      sortable={{}}
      noRowsLabel={t('plannedRoutes.noRows')}
      rowLabel={(row) => row.name}
      autoRowHeight
      onRowClick={(row) => navigate(paths.planning.plannedRoute(row.id))}
      filters={
        <>
          <ListFilter list={list} filter="status" label={t('common.status')} allLabel={t('plannedRoutes.allStatuses')} options={statuses} testId="planned-routes-status-filter" />
          <ListFilter list={list} filter="employee" label={t('plannedRoutes.employee')} allLabel={t('plannedRoutes.allEmployees')} options={employees.data ?? []} testId="planned-routes-employee-filter" />
          {dateFilter('date_from', t('plannedRoutes.dateFrom'))}
          {dateFilter('date_to', t('plannedRoutes.dateTo'))}
        </>
      }
    />
  );
}
