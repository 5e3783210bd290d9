// The route planning's map: Leaflet through react-leaflet. Tiles only when the runtime
// configuration names a tile server (`mapTileUrl`); without one the map draws its markers and
// routes on a plain background and fetches nothing. Machines are CircleMarkers, so Leaflet's
// default marker images are never asked for.
//
// With the keyboard (issue 33): the map is a named region reached with Tab (Leaflet's own keys: the
// arrows move it, + and - zoom), then each machine is a button named as its tooltip (Tab reaches it,
// its tooltip shows, Enter or Space opens it), the depot and each route an image named as theirs.
import 'leaflet/dist/leaflet.css';
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CircleMarker as CircleMarkerLayer, Path, Polyline as PolylineLayer } from 'leaflet';
import { CircleMarker, MapContainer, Polyline, TileLayer, Tooltip, useMap } from 'react-leaflet';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { runtimeConfig } from '../../../app/config';
import { VisuallyHidden } from '../../../components/spoken';
import type { MapMachine, MapPoint, PlanRoute } from '../../../api/types';
import { hasPoint, mapBackground, needLevel, ROUTE_OPACITY, routeColor, routeLine, type NeedLevel } from '../planning-logic';

/** Where the map looks before it knows any machine (western Europe). */
const HOME: [number, number] = [46.5, 6];

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

/**
 * The map's name and what its keys do, on Leaflet's container (react-leaflet passes no ARIA
 * attributes to it): a region screen readers name, described by a visually hidden hint.
 */
function MapName({ label, hintId }: { label: string; hintId: string }) {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    container.setAttribute('role', 'region');
    container.setAttribute('aria-label', label);
    container.setAttribute('aria-describedby', hintId);
  }, [map, label, hintId]);
  return null;
}

/**
 * What a marker or a route is to the keyboard and screen readers, on its SVG path: focusable
 * (Chromium makes a path with a tooltip focusable on its own, other browsers do not; its tooltip
 * shows on focus), a role and a name; a machine opens with Enter or Space as with a click.
 */
function usePathAccess<T extends Path>(label: string, onOpen?: () => void) {
  const ref = useRef<T>(null);
  const open = useRef(onOpen);
  useEffect(() => {
    open.current = onOpen;
  });
  const opens = Boolean(onOpen);
  useEffect(() => {
    const path = ref.current?.getElement();
    if (!path) return undefined;
    path.setAttribute('tabindex', '0');
    path.setAttribute('role', opens ? 'button' : 'img');
    path.setAttribute('aria-label', label);
    if (!opens) return undefined;
    const onKey = (event: Event) => {
      const { key } = event as KeyboardEvent;
      if (key !== 'Enter' && key !== ' ') return;
      event.preventDefault();
      event.stopPropagation();
      open.current?.();
    };
    path.addEventListener('keydown', onKey);
    return () => path.removeEventListener('keydown', onKey);
  }, [label, opens]);
  return ref;
}

interface MarkerProps {
  center: [number, number];
  radius: number;
  pathOptions: { color: string; weight: number; fillColor: string; fillOpacity: number };
  /** The tooltip's text, which is the marker's name too. */
  label: string;
  onOpen?: () => void;
}

function Marker({ center, radius, pathOptions, label, onOpen }: MarkerProps) {
  const ref = usePathAccess<CircleMarkerLayer>(label, onOpen);
  return (
    <CircleMarker ref={ref} center={center} radius={radius} pathOptions={pathOptions} eventHandlers={onOpen ? { click: onOpen } : undefined}>
      <Tooltip>{label}</Tooltip>
    </CircleMarker>
  );
}

function Route({ positions, color, label }: { positions: [number, number][]; color: string; label: string }) {
  const ref = usePathAccess<PolylineLayer>(label);
  return (
    <Polyline ref={ref} positions={positions} pathOptions={{ color, weight: 4, opacity: ROUTE_OPACITY }}>
      <Tooltip sticky>{label}</Tooltip>
    </Polyline>
  );
}

export function useNeedColors(): Record<NeedLevel, string> {
  const theme = useTheme();
  return { now: theme.palette.error.main, soon: theme.palette.warning.main, later: theme.palette.success.main };
}

/**
 * The ring of an offline machine (and the fill of one whose need is unknown): the secondary text
 * grey, at least 3:1 on the map's background in both modes (grey 500 was 2.6:1 on grey 100).
 */
function useOfflineColor(): string {
  return useTheme().palette.text.secondary;
}

export function PlanningMap({ machines, depot, routes, selected, onMachineClick, height }: PlanningMapProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const colors = useNeedColors();
  const offline = useOfflineColor();
  const hintId = useId();
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
        '& .leaflet-container': { height: 1, width: 1, background: mapBackground(theme.palette), fontFamily: 'inherit' },
        // The focus ring of the buttons (the theme's ButtonBase), inside the box's rounded clip.
        '& .leaflet-container:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
        '& .leaflet-interactive:focus-visible, & .leaflet-bar a:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
      }}
    >
      <VisuallyHidden>
        <span id={hintId}>{t('routePlanning.mapKeys')}</span>
      </VisuallyHidden>
      <MapContainer center={HOME} zoom={4} scrollWheelZoom attributionControl={Boolean(mapTileUrl)}>
        <MapName label={t('routePlanning.map')} hintId={hintId} />
        {mapTileUrl ? <TileLayer url={mapTileUrl} attribution={mapTileAttribution || undefined} /> : null}
        <FitToPoints points={points} />
        {routes.map((route, index) => (
          <Route key={route.employee_id} positions={routeLine(route, depot)} color={routeColor(index, theme.palette.mode)} label={route.employee_name} />
        ))}
        {placed.map((machine) => {
          const chosen = selected.includes(machine.id);
          const stop = stopOf.get(machine.id);
          const level = needLevel(machine.need);
          const label = `${stop ? `${stop.order}. ` : ''}${machine.name} · ${level ? t(`routePlanning.needs.${level}`) : machine.need}${machine.offline ? ` · ${t('routePlanning.offline')}` : ''}`;
          return (
            <Marker
              key={machine.id}
              center={[machine.latitude, machine.longitude]}
              radius={chosen ? 10 : 7}
              pathOptions={{
                // A chosen machine: a ring in the text colour (grey 900 was lost on dark mode's grey 800).
                color: machine.offline ? offline : chosen ? theme.palette.text.primary : theme.palette.common.white,
                weight: machine.offline || chosen ? 3 : 1.5,
                fillColor: level ? colors[level] : offline,
                fillOpacity: 0.9,
              }}
              label={label}
              onOpen={() => onMachineClick(machine.id)}
            />
          );
        })}
        {hasPoint(depot) ? (
          <Marker
            center={[depot.latitude, depot.longitude]}
            radius={9}
            pathOptions={{ color: theme.palette.grey[900], weight: 3, fillColor: theme.palette.common.white, fillOpacity: 1 }}
            label={t('routePlanning.depot')}
          />
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
  const offline = useOfflineColor();
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
      {item('offline', dot(theme.palette.common.white, offline), t('routePlanning.offline'))}
      {item('depot', dot(theme.palette.common.white, theme.palette.grey[900]), t('routePlanning.depot'))}
      {routes.map((route, index) =>
        item(`route-${route.employee_id}`, <Box component="span" sx={{ width: 18, height: 4, bgcolor: routeColor(index, theme.palette.mode), display: 'inline-block', borderRadius: 1 }} />, route.employee_name),
      )}
      {unplaced > 0 ? <Typography variant="caption" sx={{ color: 'text.secondary' }}>{t('routePlanning.unplaced', { count: unplaced })}</Typography> : null}
    </Box>
  );
}
