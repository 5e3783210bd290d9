import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import ChecklistIcon from '@mui/icons-material/ChecklistOutlined';
import SettingsIcon from '@mui/icons-material/TuneOutlined';
import { usePermission } from '../../../auth/use-permission';
import { SearchField } from '../../../components/fields';
import { useRowDrawer } from '../../../components/reports/report-drawer';
import { ScreenHeader } from '../../../components/screen-header';
import { useListState } from '../../../components/server-list/use-list-state';
import { usePlanningMap, useRankedMachines } from '../api/planning';
import type { Plan, RankedMachine } from '../../../api/types';
import { GeneratePanel } from '../components/generate-panel';
import { MachineDrawer } from '../components/machine-drawer';
import { MapLegend } from '../components/map-legend';
import { PlanView } from '../components/plan-view';
import { RankedList } from '../components/ranked-list';
import { SettingsDialog } from '../components/settings-dialog';
import { defaultVisitDate, hasPoint, isDay, machinesNeedingVisit, type NeedFilter } from '../planning-logic';

// The map comes with Leaflet in a script of its own, fetched when the screen shows it.
const PlanningMap = lazy(() => import('../components/planning-map'));

const FILTERS = ['need', 'visit_date'] as const;
/** Side by side from this width; below it (a tablet) the map stacks above the list. */
const SIDE_BY_SIDE = '@media (min-width: 1000px)';

type DrawerMachine = Pick<RankedMachine, 'id' | 'name'> & Partial<Pick<RankedMachine, 'location_name' | 'need' | 'offline'>>;

/** /planning/route-planning: the machines ranked by need on a map and in a list, then a plan of routes and its picklist. */
export default function RoutePlanningPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const canGenerate = can('planning.route_planning.generate_picklist');
  const list = useListState(FILTERS);
  const [tomorrow] = useState(() => defaultVisitDate(new Date()));
  const visitDate = isDay(list.filters.visit_date) ? list.filters.visit_date : tomorrow;
  const need: NeedFilter = list.filters.need === 'visit' ? 'visit' : 'all';
  const ranked = useRankedMachines({ visit_date: visitDate, need, search: list.params.search, page: list.params.page, page_size: list.params.page_size });
  const map = usePlanningMap(visitDate);
  const [selected, setSelected] = useState<string[]>([]);
  const [plan, setPlan] = useState<Plan | null>(null);
  const drawer = useRowDrawer<DrawerMachine>();
  const [settingsOpen, setSettingsOpen] = useState(false);

  // A plan is for its visit day: another day asks for a new one.
  const [planDay, setPlanDay] = useState(visitDate);
  if (planDay !== visitDate) {
    setPlanDay(visitDate);
    setPlan(null);
  }

  const machines = useMemo(() => map.data?.machines ?? [], [map.data]);
  const needing = machinesNeedingVisit(machines);
  const unplaced = machines.filter((machine) => !hasPoint(machine)).length;

  const openMachine = (id: string) => {
    const row = ranked.data?.data.find((item) => item.id === id);
    const pin = machines.find((item) => item.id === id);
    if (row) drawer.show(row);
    else if (pin) drawer.show({ id: pin.id, name: pin.name, need: pin.need, offline: pin.offline });
  };

  return (
    <>
      <ScreenHeader
        action={
          canGenerate ? (
            <Button variant="outlined" color="inherit" startIcon={<SettingsIcon />} onClick={() => setSettingsOpen(true)} data-testid="planning-settings">
              {t('routePlanning.settings')}
            </Button>
          ) : null
        }
      />
      <Stack spacing={3}>
        <Card sx={{ p: 2.5, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            type="date"
            size="small"
            label={t('routePlanning.visitDate')}
            value={visitDate}
            onChange={(event) => {
              if (isDay(event.target.value)) list.setFilter('visit_date', event.target.value);
            }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'planning-visit-date' } }}
          />
          <ToggleButtonGroup
            exclusive
            size="small"
            value={need}
            onChange={(_event, value: NeedFilter | null) => {
              if (value) list.setFilter('need', value === 'all' ? '' : value);
            }}
            aria-label={t('routePlanning.needFilter')}
          >
            <ToggleButton value="all" data-testid="planning-need-all">
              {t('routePlanning.needAll')}
            </ToggleButton>
            <ToggleButton value="visit" data-testid="planning-need-visit">
              {t('routePlanning.needVisit')}
            </ToggleButton>
          </ToggleButtonGroup>
        </Card>

        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: 'minmax(0, 1fr)', [SIDE_BY_SIDE]: { gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)', alignItems: 'start' } }}>
          <Card sx={{ p: 2 }}>
            {map.isError ? (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="planning-map-error" action={<Button color="inherit" size="small" onClick={() => void map.refetch()}>{t('common.retry')}</Button>}>
                {t('routePlanning.mapFailed')}
              </Alert>
            ) : null}
            <Box sx={{ height: 360, [SIDE_BY_SIDE]: { height: 560 } }}>
              <Suspense fallback={null}>
                <PlanningMap machines={machines} depot={map.data?.depot ?? null} routes={plan?.routes ?? []} selected={selected} onMachineClick={openMachine} height="100%" />
              </Suspense>
            </Box>
            <MapLegend routes={plan?.routes ?? []} unplaced={unplaced} />
          </Card>

          <Card>
            <Box sx={{ p: 2.5, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
              <SearchField value={list.searchInput} testId="planning-search" onChange={list.setSearch} />
              {canGenerate ? (
                <>
                  <Button
                    variant="outlined"
                    startIcon={<ChecklistIcon />}
                    disabled={needing.length === 0}
                    onClick={() => setSelected((current) => [...current, ...needing.filter((id) => !current.includes(id))])}
                    data-testid="planning-select-needing"
                  >
                    {t('routePlanning.selectNeeding', { count: needing.length })}
                  </Button>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="planning-selected-count">
                    {t('routePlanning.chosenMachines', { count: selected.length })}
                  </Typography>
                  {selected.length > 0 ? (
                    <Button size="small" color="inherit" onClick={() => setSelected([])} data-testid="planning-clear-selection">
                      {t('routePlanning.clearSelection')}
                    </Button>
                  ) : null}
                </>
              ) : null}
            </Box>
            <RankedList
              query={ranked}
              page={list.params.page}
              pageSize={list.params.page_size}
              onPage={list.setPage}
              selected={selected}
              onSelect={setSelected}
              selectable={canGenerate}
              onOpen={drawer.show}
            />
          </Card>
        </Box>

        {canGenerate ? <GeneratePanel visitDate={visitDate} machineIds={selected} onPlan={setPlan} /> : null}
        {plan ? <PlanView plan={plan} /> : null}
      </Stack>
      <MachineDrawer drawer={drawer} visitDate={visitDate} />
      {settingsOpen ? <SettingsDialog onClose={() => setSettingsOpen(false)} /> : null}
    </>
  );
}
