// A Leaflet map with ground, shared by the route planning and the location form: Natural Earth's
// land, coasts and borders drawn on a canvas under everything, the place names of GeoNames (the
// cities from afar, every town of 1,000 people at city zoom), all fetched from the app's own
// origin (ground-data.ts). Tiles only when the runtime configuration names a tile server
// (`mapTileUrl`): they cover the ground and bring their own names.
//
// With the keyboard (issue 33): the map is a named region reached with Tab, described by `hint`
// (Leaflet's own keys: the arrows move it, + and - zoom). The ground and the names are pictures
// only: nothing in them takes the focus or is read out.
import 'leaflet/dist/leaflet.css';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { canvas, divIcon, type DivIcon, type PathOptions } from 'leaflet';
import { AttributionControl, GeoJSON, MapContainer, Marker, Pane, TileLayer, useMap } from 'react-leaflet';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { runtimeConfig } from '../../app/config';
import { VisuallyHidden } from '../spoken';
import { groundLevel, loadGround, loadPlaceCell, loadPlaceIndex, type Ground, type GroundLevel } from './ground-data';
import { groundColors, type GroundColors } from './ground-style';
import { cellsInView, chooseLabels, NAME_GAP, type Place, type PlacedLabel, type PlaceIndex } from './place-labels';

/** Where a map looks before it knows any point (western Europe). */
const HOME: [number, number] = [46.5, 6];

/** The ground under the tiles (200), the names above them but under the routes and markers (400 and up). */
const GROUND_PANE = 'ground';
const PLACES_PANE = 'places';

/**
 * The map's zoom, bounds and size, read again each time it stops moving. Listened to once per map
 * (not again at each render): a view set by another component's effect in the same commit (a fit)
 * would fall between one render's listener going and the next one's coming.
 */
export function useMapView() {
  const map = useMap();
  const [view, setView] = useState(() => ({ zoom: map.getZoom(), bounds: map.getBounds(), size: map.getSize() }));
  useEffect(() => {
    const read = () => setView({ zoom: map.getZoom(), bounds: map.getBounds(), size: map.getSize() });
    read();
    map.on('moveend zoomend resize', read);
    return () => {
      map.off('moveend zoomend resize', read);
    };
  }, [map]);
  return view;
}

/**
 * Fits the view to a set of points whenever it changes (one point: a close view of it), without
 * an animation: one still running when the page is left would reach for the removed map's panes
 * (an uncaught `_leaflet_pos` error).
 */
export function FitToPoints({ points, zoom = 13 }: { points: [number, number][]; zoom?: number }) {
  const map = useMap();
  const key = JSON.stringify(points);
  useEffect(() => {
    const list = JSON.parse(key) as [number, number][];
    if (list.length === 1) map.setView(list[0], zoom, { animate: false });
    else if (list.length > 1) map.fitBounds(list, { padding: [24, 24], maxZoom: 15, animate: false });
  }, [map, key, zoom]);
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
 * The land, the coasts and the borders on one canvas, the world's coarse file far out and the finer
 * one closer (the coarse one stays until the finer has come). The map's container says how far it
 * got in `data-ground`: `loading`, `drawn` or `failed` (the map still works on its background).
 */
function GroundLayer({ colors }: { colors: GroundColors }) {
  const map = useMap();
  const { zoom } = useMapView();
  const level = groundLevel(zoom);
  const [ground, setGround] = useState<{ level: GroundLevel; data: Ground } | null>(null);
  const renderer = useMemo(() => canvas({ pane: GROUND_PANE, padding: 0.5 }), []);
  const styles = useMemo(
    () =>
      ({
        land: { stroke: false, fill: true, fillColor: colors.land, fillOpacity: 1 },
        coast: { color: colors.coast, weight: 1, fill: false },
        borders: { color: colors.border, weight: 1, dashArray: '4 3', fill: false },
      }) satisfies Record<string, PathOptions>,
    [colors],
  );

  useEffect(() => {
    let live = true;
    const container = map.getContainer();
    if (!container.dataset.ground) container.dataset.ground = 'loading';
    loadGround(level).then(
      (data) => {
        if (live) setGround({ level, data });
      },
      () => {
        if (live && container.dataset.ground !== 'drawn') container.dataset.ground = 'failed';
      },
    );
    return () => {
      live = false;
    };
  }, [map, level]);

  useEffect(() => {
    if (ground) map.getContainer().dataset.ground = 'drawn';
  }, [map, ground]);

  if (!ground) return null;
  const common = { renderer, interactive: false, pane: GROUND_PANE };
  return (
    <>
      <GeoJSON key={`land-${ground.level}`} data={ground.data.land} style={styles.land} {...common} />
      <GeoJSON key={`coast-${ground.level}`} data={ground.data.coast} style={styles.coast} {...common} />
      <GeoJSON key={`borders-${ground.level}`} data={ground.data.borders} style={styles.borders} {...common} />
    </>
  );
}

/** A name's marker: a dot at the place and the name beside it (one icon per name and placement, made once). */
const labelIcons = new Map<string, DivIcon>();
function labelIcon({ name, side, offset }: PlacedLabel): DivIcon {
  const key = `${side}:${offset}:${name}`;
  let icon = labelIcons.get(key);
  if (!icon) {
    const element = document.createElement('span');
    element.className = 'vf-place-name';
    element.textContent = name;
    element.style[side] = `${NAME_GAP + offset}px`;
    icon = divIcon({ className: 'vf-place', html: element, iconSize: [0, 0] });
    labelIcons.set(key, icon);
  }
  return icon;
}

/** The towns' files fetched so far, by cell. */
function useCells(index: PlaceIndex | null, cells: string[]): Place[] {
  const [loaded, setLoaded] = useState<Record<string, Place[]>>({});
  const wanted = cells.join(',');
  useEffect(() => {
    let live = true;
    for (const cell of wanted ? wanted.split(',') : []) {
      loadPlaceCell(cell).then(
        (places) => {
          if (live) setLoaded((previous) => (previous[cell] ? previous : { ...previous, [cell]: places }));
        },
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [wanted]);
  return useMemo(() => (index ? [...index.places, ...cells.flatMap((cell) => loaded[cell] ?? [])] : []), [index, cells, loaded]);
}

/** How far around a marker no name is written, in pixels (a cluster is up to 40 wide). */
const AVOID_RADIUS = 20;

/**
 * The place names of the view (`place-labels.ts` chooses them), above the ground and clear of the
 * points given (the markers), hidden from screen readers.
 */
function PlaceLabels({ avoid }: { avoid: readonly [number, number][] }) {
  const map = useMap();
  const view = useMapView();
  const [index, setIndex] = useState<PlaceIndex | null>(null);
  useEffect(() => {
    let live = true;
    map.getPane(PLACES_PANE)?.setAttribute('aria-hidden', 'true');
    loadPlaceIndex().then(
      (loaded) => {
        if (live) setIndex(loaded);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [map]);
  const { bounds, zoom, size } = view;
  const cells = useMemo(
    () => (index ? cellsInView({ south: bounds.getSouth(), west: bounds.getWest(), north: bounds.getNorth(), east: bounds.getEast() }, zoom, index) : []),
    [index, bounds, zoom],
  );
  const places = useCells(index, cells);
  const labels = useMemo(
    () =>
      chooseLabels(places, {
        zoom,
        width: size.x,
        height: size.y,
        project: (latitude, longitude) => map.latLngToContainerPoint([latitude, longitude]),
        charWidth: 6.5,
        lineHeight: 16,
        most: 60,
        avoid: avoid.map(([latitude, longitude]) => map.latLngToContainerPoint([latitude, longitude])),
        avoidRadius: AVOID_RADIUS,
      }),
    // `bounds` is the view the projection belongs to.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [places, avoid, map, zoom, size, bounds],
  );
  return labels.map((label) => (
    <Marker key={`${label.name}@${label.latitude},${label.longitude}`} position={[label.latitude, label.longitude]} icon={labelIcon(label)} interactive={false} keyboard={false} pane={PLACES_PANE} />
  ));
}

interface BaseMapProps {
  /** The map's name (its region's) and what its keys do, read out with it. */
  label: string;
  hint: string;
  height: number | string;
  testId: string;
  /** Where it looks until its content fits it (a point of its own). */
  center?: [number, number];
  zoom?: number;
  /** Points no place name may cover (the markers drawn on the map). */
  avoid?: readonly [number, number][];
  children?: ReactNode;
}

const NOTHING: readonly [number, number][] = [];

export function BaseMap({ label, hint, height, testId, center = HOME, zoom = 4, avoid = NOTHING, children }: BaseMapProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const colors = useMemo(() => groundColors(theme.palette), [theme.palette]);
  const hintId = useId();
  const { mapTileUrl, mapTileAttribution } = runtimeConfig();
  return (
    <Box
      data-testid={testId}
      data-tiles={mapTileUrl ? 'on' : 'off'}
      sx={{
        height,
        borderRadius: 1,
        overflow: 'hidden',
        '& .leaflet-container': { height: 1, width: 1, background: colors.sea, fontFamily: 'inherit' },
        // The focus ring of the buttons (the theme's ButtonBase), inside the box's rounded clip.
        '& .leaflet-container:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
        '& .leaflet-interactive:focus-visible, & .leaflet-bar a:focus-visible, & .leaflet-marker-icon:focus-visible': {
          outline: `2px solid ${theme.palette.primary.main}`,
          outlineOffset: 2,
        },
        // Leaflet's own sheet says `.leaflet-container .leaflet-control-attribution` (a white
        // background); the same specificity would leave the winner to the order the two sheets
        // load in, so ours is one class stronger.
        '& .leaflet-container .leaflet-control-attribution': { bgcolor: 'background.paper', color: 'text.secondary', fontSize: 11, lineHeight: 1.6, px: 0.75 },
        '& .leaflet-control-attribution a': { color: 'primary.main' },
        // A name: a dot on the place, the name to its right, outlined in the land's colour.
        '& .vf-place': { pointerEvents: 'none' },
        '& .vf-place::before': { content: '""', position: 'absolute', left: -2.5, top: -2.5, width: 5, height: 5, borderRadius: '50%', bgcolor: colors.label },
        '& .vf-place-name': {
          position: 'absolute',
          top: -8,
          whiteSpace: 'nowrap',
          fontSize: 11,
          lineHeight: '16px',
          fontWeight: 600,
          color: colors.label,
          textShadow: [-1, 1].flatMap((x) => [-1, 1].map((y) => `${x}px ${y}px 0 ${colors.halo}`)).join(', '),
        },
      }}
    >
      <VisuallyHidden>
        <span id={hintId}>{hint}</span>
      </VisuallyHidden>
      <MapContainer center={center} zoom={zoom} scrollWheelZoom attributionControl={false}>
        <MapName label={label} hintId={hintId} />
        <AttributionControl key={i18n.language} position="bottomright" prefix={t('common.mapSources')} />
        <Pane name={GROUND_PANE} style={{ zIndex: 150 }}>
          <GroundLayer colors={colors} />
        </Pane>
        {mapTileUrl ? (
          <TileLayer url={mapTileUrl} attribution={mapTileAttribution || undefined} />
        ) : (
          <Pane name={PLACES_PANE} style={{ zIndex: 350 }}>
            <PlaceLabels avoid={avoid} />
          </Pane>
        )}
        {children}
      </MapContainer>
    </Box>
  );
}
