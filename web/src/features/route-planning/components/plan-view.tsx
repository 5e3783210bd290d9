import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import { usePermission } from '../../../auth/use-permission';
import type { Plan, PlanRoute, SelectionNeed } from '../../../api/types';
import { ChoiceField } from '../../../components/fields';
import { componentsText, formatClock, formatCount, formatDate, formatDuration, formatKm } from '../../../components/format';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { useSavePlannedRoutes } from '../api/planning';
import { ROUTE_TYPES, routeColor, saveBody, UNASSIGNED_REASONS, type RouteType } from '../planning-logic';
import { RefusalAlert } from './generate-panel';

const cellSx = { whiteSpace: 'nowrap' } as const;

function ScrollTable({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ overflowX: 'auto' }} data-testid={testId}>
      <Table size="small">{children}</Table>
    </Box>
  );
}

function RouteCard({ route, index }: { route: PlanRoute; index: number }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const span = route.start || route.end ? `${formatClock(route.start, language) || NO_FIGURE}–${formatClock(route.end, language) || NO_FIGURE}` : null;
  const facts = [
    t('routePlanning.stopsCount', { count: route.stops.length }),
    formatKm(route.distance_m, language),
    formatDuration(route.duration_s, language),
    span,
    t('routePlanning.unitsCount', { count: route.units, units: formatCount(route.units, language) }),
  ].filter(Boolean);
  return (
    <Card data-testid={`plan-route-${route.employee_id}`} variant="outlined">
      <CardHeader
        avatar={<Box sx={{ width: 14, height: 14, borderRadius: '50%', bgcolor: (theme) => routeColor(index, theme.palette.mode) }} />}
        title={route.employee_name}
        subheader={facts.join(' · ')}
        slotProps={{ title: { variant: 'subtitle1' } }}
      />
      {route.stops.length === 0 ? (
        <CardContent>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('routePlanning.noStops')}
          </Typography>
        </CardContent>
      ) : (
        <ScrollTable>
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>{t('routePlanning.machine')}</TableCell>
              <TableCell>{t('routePlanning.arrival')}</TableCell>
              <TableCell>{t('routePlanning.departure')}</TableCell>
              <TableCell align="right">{t('routePlanning.fromPrevious')}</TableCell>
              <TableCell align="right">{t('routePlanning.units')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {route.stops.map((stop, order) => (
              <TableRow key={stop.machine_id} data-testid="plan-stop" data-machine={stop.machine_id}>
                <TableCell>{order + 1}</TableCell>
                <TableCell>{stop.machine_name}</TableCell>
                <TableCell sx={cellSx}>{formatClock(stop.arrival, language) || NO_FIGURE}</TableCell>
                <TableCell sx={cellSx}>{formatClock(stop.departure, language) || NO_FIGURE}</TableCell>
                <TableCell align="right" sx={cellSx}>
                  {formatKm(stop.distance_m, language) || NO_FIGURE}
                </TableCell>
                <TableCell align="right">{formatCount(stop.units, language)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </ScrollTable>
      )}
    </Card>
  );
}

function PicklistLines({ lines }: { lines: SelectionNeed[] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <ScrollTable>
      <TableHead>
        <TableRow>
          <TableCell>{t('routePlanning.selection')}</TableCell>
          <TableCell>{t('routePlanning.product')}</TableCell>
          <TableCell align="right">{t('routePlanning.current')}</TableCell>
          <TableCell align="right">{t('routePlanning.predicted')}</TableCell>
          <TableCell align="right">{t('routePlanning.toBring')}</TableCell>
          <TableCell>{t('routePlanning.expiry')}</TableCell>
          <TableCell>{t('routePlanning.components')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.selection}>
            <TableCell>{line.selection}</TableCell>
            <TableCell>{line.product_name}</TableCell>
            <TableCell align="right">{formatCount(line.current, language)}</TableCell>
            <TableCell align="right">{formatCount(line.predicted_at_visit, language)}</TableCell>
            <TableCell align="right">
              <strong>{formatCount(line.to_bring, language)}</strong>
            </TableCell>
            <TableCell sx={cellSx}>{formatDate(line.expiry_date, language) || NO_FIGURE}</TableCell>
            <TableCell>{componentsText(line.components, language) || NO_FIGURE}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollTable>
  );
}

/** The generated plan: each refiller's stops in order, what could not be routed and why, the picklist per machine and in total; then save. */
export function PlanView({ plan }: { plan: Plan }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigate = useNavigate();
  const can = usePermission();
  const save = useSavePlannedRoutes();
  const [routeType, setRouteType] = useState<RouteType>('refill');
  const [name, setName] = useState('');
  const stops = plan.routes.reduce((sum, route) => sum + route.stops.length, 0);
  const reasonLabel = (reason: string) => {
    const known = UNASSIGNED_REASONS.find((item) => item === reason);
    return known ? t(`routePlanning.reasons.${known}`) : reason;
  };

  // A new plan comes into view (it is drawn below the list and the generate panel).
  const top = useRef<HTMLDivElement>(null);
  useEffect(() => {
    top.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [plan]);

  const submit = async () => {
    try {
      const reply = await save.mutateAsync(saveBody(plan, routeType, name));
      toast.success(t('routePlanning.saved'));
      // One route saved: open it; several: the list, where they all are.
      const saved = Array.isArray(reply.data) ? reply.data : [];
      navigate(saved.length === 1 && saved[0]?.id ? paths.planning.plannedRoute(saved[0].id) : paths.planning.plannedRoutes);
    } catch {
      // Shown below from the mutation's error.
    }
  };

  return (
    <Stack spacing={3} data-testid="plan" ref={top} sx={{ scrollMarginTop: 80 }}>
      <Typography variant="h6" component="h2">
        {t('routePlanning.planTitle', { date: formatDate(plan.visit_date, language) })}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 520px), 1fr))' }}>
        {plan.routes.map((route, index) => (
          <RouteCard key={route.employee_id} route={route} index={index} />
        ))}
      </Box>
      {plan.unassigned.length > 0 ? (
        <Alert severity="warning" data-testid="plan-unassigned">
          <Typography variant="subtitle2">{t('routePlanning.unassigned', { count: plan.unassigned.length })}</Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {plan.unassigned.map((item) => (
              <li key={item.machine_id}>
                {item.machine_name}: {reasonLabel(item.reason)}
              </li>
            ))}
          </Box>
        </Alert>
      ) : null}
      <Card data-testid="plan-picklist">
        <CardHeader title={t('routePlanning.picklist')} subheader={t('routePlanning.picklistHint')} />
        <Box sx={{ px: 2, pb: 2 }}>
          {plan.picklist.length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', px: 1 }}>
              {t('routePlanning.nothingToBring')}
            </Typography>
          ) : (
            plan.picklist.map((machine) => (
              <Accordion key={machine.machine_id} disableGutters variant="outlined" data-testid={`plan-picklist-${machine.machine_id}`}>
                <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                  <Typography variant="subtitle2">
                    {machine.machine_name} ·{' '}
                    {t('routePlanning.unitsCount', {
                      count: machine.lines.reduce((sum, line) => sum + line.to_bring, 0),
                      units: formatCount(machine.lines.reduce((sum, line) => sum + line.to_bring, 0), language),
                    })}
                  </Typography>
                </AccordionSummary>
                <AccordionDetails sx={{ p: 0 }}>
                  <PicklistLines lines={machine.lines} />
                </AccordionDetails>
              </Accordion>
            ))
          )}
        </Box>
      </Card>
      <Card data-testid="plan-totals">
        <CardHeader title={t('routePlanning.totals')} subheader={t('routePlanning.totalsHint')} />
        <ScrollTable>
          <TableHead>
            <TableRow>
              <TableCell>{t('routePlanning.product')}</TableCell>
              <TableCell align="right">{t('routePlanning.quantity')}</TableCell>
              <TableCell align="right">{t('routePlanning.caseSize')}</TableCell>
              <TableCell>{t('routePlanning.components')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {plan.totals.map((total) => (
              <TableRow key={total.product_id}>
                <TableCell>{total.product_name}</TableCell>
                <TableCell align="right">{formatCount(total.quantity, language)}</TableCell>
                <TableCell align="right">{total.case_size ? formatCount(total.case_size, language) : NO_FIGURE}</TableCell>
                <TableCell>{componentsText(total.components, language) || NO_FIGURE}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </ScrollTable>
      </Card>
      {can('planning.route_planning.generate_picklist') ? (
        <Card data-testid="plan-save-panel">
          <CardHeader title={t('routePlanning.saveTitle')} subheader={t('routePlanning.saveHint', { count: plan.routes.filter((route) => route.stops.length > 0).length, stops })} />
          <CardContent sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <ChoiceField
              label={t('routePlanning.routeType')}
              value={routeType}
              choices={ROUTE_TYPES}
              labelOf={(type) => t(`routePlanning.routeTypes.${type}`)}
              onChange={setRouteType}
              testId="plan-route-type"
              sx={{ minWidth: 220 }}
            />
            <TextField
              size="small"
              label={t('routePlanning.routeName')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              helperText={t('routePlanning.routeNameHint')}
              sx={{ minWidth: 240, flexGrow: 1 }}
              slotProps={{ htmlInput: { maxLength: 120, 'data-testid': 'plan-name' } }}
            />
            <Button variant="contained" startIcon={<SaveIcon />} onClick={() => void submit()} loading={save.isPending} disabled={stops === 0} data-testid="plan-save">
              {t('routePlanning.save')}
            </Button>
            {save.isError ? (
              <RefusalAlert error={save.error} fallback={t('routePlanning.saveFailed')} testId="plan-save-error" />
            ) : null}
          </CardContent>
        </Card>
      ) : null}
    </Stack>
  );
}
