// The route planning's map: the shared base map (ground, place names, tiles when configured) with
// the machines, the depot and a plan's routes. Loaded on its own (React.lazy): Leaflet and the
// clustering come with the map, not with the screen's first script.
//
// Drawing: machines that overlap at a zoom join a cluster showing how many they are, coloured as
// the most urgent of them; a plan's stops are never clustered. Each need level has its own pane,
// the most urgent above, so that a red machine is never hidden under a green one; machines on one
// spot are fanned out around it. The view fits the machines and the depot, or a plan's routes.
//
// With the keyboard (issue 33): each machine is a button named as its tooltip (Tab reaches it,
// its tooltip shows, Enter or Space opens it), each cluster a button that zooms in on it, the
// depot and each route an image named as theirs. Machines come before clusters in the Tab order.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { divIcon, type CircleMarker as CircleMarkerLayer, type LatLngTuple, type Marker as MarkerLayer, type Polyline as PolylineLayer } from 'leaflet';
import { CircleMarker, Marker, Pane, Polyline, Tooltip, useMap } from 'react-leaflet';
import { useTheme } from '@mui/material/styles';
import { BaseMap, FitToPoints, useMapView } from '../../../components/map/base-map';
import type { MapMachine, MapPoint, PlanRoute } from '../../../api/types';
import { chosenRing, depotSvg, needMark, offlineColor } from './map-marks';
import { CLUSTER_MAX_ZOOM, clusterMachines, fanOut, type MachineCluster } from '../machine-clusters';
import { hasPoint, inDrawingOrder, NEED_LEVELS, needLevel, needRank, pointsToFit, rankLevel, ROUTE_OPACITY, routeColor, routeLine, type NeedLevel } from '../planning-logic';

interface PlanningMapProps {
  machines: MapMachine[];
  depot: MapPoint | null;
  routes: PlanRoute[];
  selected: string[];
  onMachineClick: (id: string) => void;
  height: number | string;
}

/**
 * A need's pane: 0 (unknown) to 3 (now), stacked in that order above the routes (overlayPane, 400)
 * and the clusters (a machine on its own is small, a cluster large: the small one stays seen).
 */
const machinePane = (rank: number) => `machines-${rank}`;
const RANKS = [0, ...NEED_LEVELS.map((level) => needRank(level)).sort()];
const CLUSTER_PANE = 'clusters';
const DEPOT_PANE = 'depot';

type Accessible = { getElement(): Element | undefined };

/**
 * What a marker, a cluster or a route is to the keyboard and screen readers, on its element:
 * focusable (its tooltip shows on focus), a role and a name; one that opens something does so with
 * Enter or Space as with a click.
 */
function useAccess<T extends Accessible>(label: string, onOpen?: () => void) {
  const ref = useRef<T>(null);
  const open = useRef(onOpen);
  useEffect(() => {
    open.current = onOpen;
  });
  const opens = Boolean(onOpen);
  useEffect(() => {
    const element = ref.current?.getElement();
    if (!element) return undefined;
    element.setAttribute('tabindex', '0');
    element.setAttribute('role', opens ? 'button' : 'img');
    element.setAttribute('aria-label', label);
    if (!opens) return undefined;
    const onKey = (event: Event) => {
      const { key } = event as KeyboardEvent;
      if (key !== 'Enter' && key !== ' ') return;
      event.preventDefault();
      event.stopPropagation();
      open.current?.();
    };
    element.addEventListener('keydown', onKey);
    return () => element.removeEventListener('keydown', onKey);
  }, [label, opens]);
  return ref;
}

interface MachineMarkerProps {
  center: LatLngTuple;
  chosen: boolean;
  offline: boolean;
  level: NeedLevel | null;
  /** The tooltip's text, which is the marker's name too. */
  label: string;
  onOpen: () => void;
}

function MachineMarker({ center, chosen, offline, level, label, onOpen }: MachineMarkerProps) {
  const theme = useTheme();
  const ref = useAccess<CircleMarkerLayer>(label, onOpen);
  const color = chosen ? chosenRing(theme) : offline ? offlineColor(theme) : theme.palette.common.white;
  const fillColor = needMark(theme, level).fill;
  return (
    <CircleMarker
      ref={ref}
      center={center}
      radius={chosen ? 10 : 7}
      pathOptions={{ color, weight: chosen ? 4 : offline ? 3 : 1.5, fillColor, fillOpacity: 0.9 }}
      eventHandlers={{ click: onOpen }}
    >
      <Tooltip>{label}</Tooltip>
    </CircleMarker>
  );
}

function Route({ positions, color, label }: { positions: LatLngTuple[]; color: string; label: string }) {
  const ref = useAccess<PolylineLayer>(label);
  return (
    <Polyline ref={ref} positions={positions} pathOptions={{ color, weight: 4, opacity: ROUTE_OPACITY }}>
      <Tooltip sticky>{label}</Tooltip>
    </Polyline>
  );
}

function Depot({ center }: { center: LatLngTuple }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const label = t('routePlanning.depot');
  const ref = useAccess<MarkerLayer>(label);
  const icon = useMemo(
    () => divIcon({ className: 'vf-depot', html: depotSvg(theme, 26), iconSize: [26, 26], iconAnchor: [13, 13] }),
    [theme],
  );
  return (
    <Marker ref={ref} position={center} icon={icon} keyboard={false}>
      <Tooltip>{label}</Tooltip>
    </Marker>
  );
}

function Cluster({ cluster }: { cluster: MachineCluster }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const map = useMap();
  const level = rankLevel(cluster.rank);
  const need = level ? t(`routePlanning.needs.${level}`) : t('routePlanning.needUnknown');
  const label = [t('routePlanning.cluster', { count: cluster.count, need }), cluster.chosen > 0 ? t('routePlanning.clusterChosen', { count: cluster.chosen }) : null].filter(Boolean).join(' · ');
  // The cluster goes as the map zooms in: the focus goes back to the map, where Tab reaches its machines.
  const zoomIn = () => {
    map.setView([cluster.latitude, cluster.longitude], Math.min(cluster.splitsAt, CLUSTER_MAX_ZOOM + 1), { animate: false });
    // Once the cluster's element has gone (React removes it after this event).
    window.setTimeout(() => map.getContainer().focus({ preventScroll: true }), 0);
  };
  const ref = useAccess<MarkerLayer>(label, zoomIn);
  const { fill, text } = needMark(theme, level);
  const size = cluster.count < 10 ? 28 : cluster.count < 100 ? 34 : 40;
  const ring = cluster.chosen > 0 ? `4px solid ${chosenRing(theme)}` : `2px solid ${theme.palette.background.paper}`;
  const icon = useMemo(() => {
    const element = document.createElement('span');
    element.textContent = String(cluster.count);
    Object.assign(element.style, {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      boxSizing: 'border-box',
      width: `${size}px`,
      height: `${size}px`,
      borderRadius: '50%',
      background: fill,
      color: text,
      border: ring,
      font: `700 12px/1 ${theme.typography.fontFamily ?? 'sans-serif'}`,
    });
    return divIcon({ className: 'vf-cluster', html: element, iconSize: [size, size] });
  }, [cluster.count, size, fill, text, ring, theme.typography.fontFamily]);
  return (
    <Marker ref={ref} position={[cluster.latitude, cluster.longitude]} icon={icon} eventHandlers={{ click: zoomIn }}>
      <Tooltip>{label}</Tooltip>
    </Marker>
  );
}

type MachinesProps = Omit<PlanningMapProps, 'depot' | 'height'> & {
  /** Told where the machines and clusters of the view are drawn (no place name covers them). */
  onMarks: (points: [number, number][]) => void;
};

/** The machines and clusters of the view, each need level in its pane. */
function Machines({ machines, routes, selected, onMachineClick, onMarks }: MachinesProps) {
  const { t } = useTranslation();
  const map = useMap();
  const { zoom, bounds } = useMapView();
  const placed = useMemo(() => machines.filter(hasPoint), [machines]);
  const stopOf = useMemo(() => {
    const stops = new Map<string, number>();
    routes.forEach((route) => route.stops.forEach((stop, order) => stops.set(stop.machine_id, order + 1)));
    return stops;
  }, [routes]);
  const chosenKey = selected.join(',');
  // A plan's stops stand alone: the route's line runs through each of them.
  const index = useMemo(
    () => clusterMachines(placed.filter((machine) => !stopOf.has(machine.id)), new Set(chosenKey ? chosenKey.split(',') : [])),
    [placed, stopOf, chosenKey],
  );
  const padded = bounds.pad(0.25);
  const view = index.at({ west: padded.getWest(), south: padded.getSouth(), east: padded.getEast(), north: padded.getNorth() }, zoom);
  const alone = new Set(view.alone);
  const drawn = inDrawingOrder(placed.filter((machine) => alone.has(machine.id) || stopOf.has(machine.id)));

  // Machines on one spot, fanned out around it.
  const bySpot = new Map<string, string[]>();
  for (const machine of drawn) {
    const spot = `${machine.latitude},${machine.longitude}`;
    bySpot.set(spot, [...(bySpot.get(spot) ?? []), machine.id]);
  }
  const positionOf = (machine: MapMachine & MapPoint): LatLngTuple => {
    const sharing = bySpot.get(`${machine.latitude},${machine.longitude}`) ?? [];
    const offset = fanOut(sharing.indexOf(machine.id), sharing.length);
    if (offset.x === 0 && offset.y === 0) return [machine.latitude, machine.longitude];
    const moved = map.unproject(map.project([machine.latitude, machine.longitude], zoom).add([offset.x, offset.y]), zoom);
    return [moved.lat, moved.lng];
  };

  const marks = JSON.stringify([...drawn.map(positionOf), ...view.clusters.map((cluster) => [cluster.latitude, cluster.longitude])]);
  useEffect(() => onMarks(JSON.parse(marks) as [number, number][]), [marks, onMarks]);

  const chosen = new Set(selected);
  return (
    <>
      {RANKS.map((rank) => (
        <Pane key={rank} name={machinePane(rank)} style={{ zIndex: 410 + rank * 5 }}>
          {drawn
            .filter((machine) => needRank(machine.need) === rank)
            .map((machine) => {
              const stop = stopOf.get(machine.id);
              const level = needLevel(machine.need);
              const label = `${stop ? `${stop}. ` : ''}${machine.name} · ${level ? t(`routePlanning.needs.${level}`) : machine.need}${machine.offline ? ` · ${t('routePlanning.offline')}` : ''}`;
              return (
                <MachineMarker
                  key={machine.id}
                  center={positionOf(machine)}
                  chosen={chosen.has(machine.id)}
                  offline={machine.offline}
                  level={level}
                  label={label}
                  onOpen={() => onMachineClick(machine.id)}
                />
              );
            })}
        </Pane>
      ))}
      <Pane name={CLUSTER_PANE} style={{ zIndex: 405 }}>
        {[...view.clusters]
          .sort((a, b) => a.rank - b.rank)
          .map((cluster) => (
            <Cluster key={`${cluster.id}-${cluster.count}-${cluster.rank}-${cluster.chosen}`} cluster={cluster} />
          ))}
      </Pane>
    </>
  );
}

export default function PlanningMap({ machines, depot, routes, selected, onMachineClick, height }: PlanningMapProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const points = useMemo(() => pointsToFit(machines, depot, routes), [machines, depot, routes]);
  const [marks, setMarks] = useState<[number, number][]>([]);
  const avoid = useMemo(() => (hasPoint(depot) ? [...marks, [depot.latitude, depot.longitude] as [number, number]] : marks), [marks, depot]);
  return (
    <BaseMap label={t('routePlanning.map')} hint={t('routePlanning.mapKeys')} height={height} testId="planning-map" avoid={avoid}>
      <FitToPoints points={points} />
      {routes.map((route, index) => (
        <Route key={route.employee_id} positions={routeLine(route, depot)} color={routeColor(index, theme.palette.mode)} label={route.employee_name} />
      ))}
      <Machines machines={machines} routes={routes} selected={selected} onMachineClick={onMachineClick} onMarks={setMarks} />
      {hasPoint(depot) ? (
        <Pane name={DEPOT_PANE} style={{ zIndex: 450 }}>
          <Depot center={[depot.latitude, depot.longitude]} />
        </Pane>
      ) : null}
    </BaseMap>
  );
}
