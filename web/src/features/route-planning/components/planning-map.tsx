// The route planning's map: Leaflet through react-leaflet. Tiles only when the runtime
// configuration names a tile server (`mapTileUrl`); without one the map draws its markers and
// routes on a plain background and fetches nothing. Machines are CircleMarkers, so Leaflet's
// default marker images are never asked for.
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, Polyline, TileLayer, Tooltip, useMap } from 'react-leaflet';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { runtimeConfig } from '../../../app/config';
import type { MapMachine, MapPoint, PlanRoute } from '../../../api/types';
import { hasPoint, needLevel, routeColor, routeLine, type NeedLevel } from '../planning-logic';

/** Where the map looks before it knows any machine (western Europe). */
const HOME: [number, number] = [46.5, 6];
const OFFLINE = '#919eab';

interface PlanningMapProps {
  machines: MapMachine[];
  depot: MapPoint | null;
  routes: PlanRoute[];
  selected: string[];
  onMachineClick: (id: string) => void;
  height: number | string;
}

/**
 * Fits the view to the machines and the depot whenever that set of points changes, without an
 * animation: one still running when the page is left would reach for the removed map's panes
 * (an uncaught `_leaflet_pos` error).
 */
function FitToPoints({ points }: { points: [number, number][] }) {
  const map = useMap();
  const key = JSON.stringify(points);
  useEffect(() => {
    const list = JSON.parse(key) as [number, number][];
    if (list.length === 1) map.setView(list[0], 13, { animate: false });
    else if (list.length > 1) map.fitBounds(list, { padding: [24, 24], maxZoom: 15, animate: false });
  }, [map, key]);
  return null;
}

export function useNeedColors(): Record<NeedLevel, string> {
  const theme = useTheme();
  return { now: theme.palette.error.main, soon: theme.palette.warning.main, later: theme.palette.success.main };
}

export function PlanningMap({ machines, depot, routes, selected, onMachineClick, height }: PlanningMapProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const colors = useNeedColors();
  const { mapTileUrl, mapTileAttribution } = runtimeConfig();
  const placed = machines.filter(hasPoint);
  const points = useMemo<[number, number][]>(() => {
    const list: [number, number][] = machines.filter(hasPoint).map((machine) => [machine.latitude, machine.longitude]);
    if (hasPoint(depot)) list.push([depot.latitude, depot.longitude]);
    return list;
  }, [machines, depot]);
  const stopOf = new Map<string, { route: number; order: number }>();
  routes.forEach((route, index) => route.stops.forEach((stop, order) => stopOf.set(stop.machine_id, { route: index, order: order + 1 })));

  return (
    <Box
      data-testid="planning-map"
      data-tiles={mapTileUrl ? 'on' : 'off'}
      sx={{
        height,
        borderRadius: 1,
        overflow: 'hidden',
        '& .leaflet-container': { height: 1, width: 1, background: theme.palette.mode === 'dark' ? theme.palette.grey[800] : theme.palette.grey[100], fontFamily: 'inherit' },
      }}
    >
      <MapContainer center={HOME} zoom={4} scrollWheelZoom attributionControl={Boolean(mapTileUrl)} aria-label={t('routePlanning.map')}>
        {mapTileUrl ? <TileLayer url={mapTileUrl} attribution={mapTileAttribution || undefined} /> : null}
        <FitToPoints points={points} />
        {routes.map((route, index) => (
          <Polyline key={route.employee_id} positions={routeLine(route, depot)} pathOptions={{ color: routeColor(index), weight: 4, opacity: 0.8 }}>
            <Tooltip sticky>{route.employee_name}</Tooltip>
          </Polyline>
        ))}
        {placed.map((machine) => {
          const chosen = selected.includes(machine.id);
          const stop = stopOf.get(machine.id);
          const level = needLevel(machine.need);
          return (
            <CircleMarker
              key={machine.id}
              center={[machine.latitude, machine.longitude]}
              radius={chosen ? 10 : 7}
              pathOptions={{
                color: machine.offline ? OFFLINE : chosen ? theme.palette.grey[900] : theme.palette.common.white,
                weight: machine.offline || chosen ? 3 : 1.5,
                fillColor: level ? colors[level] : OFFLINE,
                fillOpacity: 0.9,
              }}
              eventHandlers={{ click: () => onMachineClick(machine.id) }}
            >
              <Tooltip>
                {stop ? `${stop.order}. ` : ''}
                {machine.name} · {level ? t(`routePlanning.needs.${level}`) : machine.need}
                {machine.offline ? ` · ${t('routePlanning.offline')}` : ''}
              </Tooltip>
            </CircleMarker>
          );
        })}
        {hasPoint(depot) ? (
          <CircleMarker center={[depot.latitude, depot.longitude]} radius={9} pathOptions={{ color: theme.palette.grey[900], weight: 3, fillColor: theme.palette.common.white, fillOpacity: 1 }}>
            <Tooltip>{t('routePlanning.depot')}</Tooltip>
          </CircleMarker>
        ) : null}
      </MapContainer>
    </Box>
  );
}

/** What the colours of the map mean. */
export function MapLegend({ routes, unplaced }: { routes: PlanRoute[]; unplaced: number }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const colors = useNeedColors();
  const dot = (fill: string, stroke = fill) => <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: fill, border: `2px solid ${stroke}`, display: 'inline-block' }} />;
  const item = (key: string, mark: ReactNode, label: string) => (
    <Box key={key} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      {mark}
      <Typography variant="caption">{label}</Typography>
    </Box>
  );
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 1.5 }} data-testid="map-legend">
      {item('now', dot(colors.now), t('routePlanning.needs.now'))}
      {item('soon', dot(colors.soon), t('routePlanning.needs.soon'))}
      {item('later', dot(colors.later), t('routePlanning.needs.later'))}
      {item('offline', dot(theme.palette.common.white, OFFLINE), t('routePlanning.offline'))}
      {item('depot', dot(theme.palette.common.white, theme.palette.grey[900]), t('routePlanning.depot'))}
      {routes.map((route, index) =>
        item(`route-${route.employee_id}`, <Box component="span" sx={{ width: 18, height: 4, bgcolor: routeColor(index), display: 'inline-block', borderRadius: 1 }} />, route.employee_name),
      )}
      {unplaced > 0 ? <Typography variant="caption" sx={{ color: 'text.secondary' }}>{t('routePlanning.unplaced', { count: unplaced })}</Typography> : null}
    </Box>
  );
}
