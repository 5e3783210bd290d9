// A place picked on the base map, beside the latitude and longitude fields (which stay): a click
// on the map puts the place there; with the keyboard, the map is moved (arrows) and zoomed (+ and -)
// until its centre (the cross) is on the place, then the button under it puts the place there.
// Loaded on its own (React.lazy): Leaflet comes with the map, not with the form.
import { useEffect, useState } from 'react';
import type { Map as LeafletMap } from 'leaflet';
import { CircleMarker, useMap, useMapEvents } from 'react-leaflet';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import { BaseMap } from './base-map';

/** Degrees kept: five decimals are about a metre. */
const round = (degrees: number) => Number(degrees.toFixed(5));

/** How close the map shows a place: streets apart. */
const PLACE_ZOOM = 15;

interface LocationPickerProps {
  /** The place as the fields hold it (null: none, or not a valid one). */
  latitude: number | null;
  longitude: number | null;
  onPick: (latitude: number, longitude: number) => void;
  /** The map's name, what its keys do, and the button's text. */
  label: string;
  hint: string;
  centreLabel: string;
  height?: number;
}

/** Hands the map to its owner (the button under it reads its centre). */
function MapHandle({ onMap }: { onMap: (map: LeafletMap) => void }) {
  const map = useMap();
  useEffect(() => onMap(map), [map, onMap]);
  return null;
}

/** A click on the map puts the place there. */
function PickOnClick({ onPick }: { onPick: LocationPickerProps['onPick'] }) {
  useMapEvents({
    click: (event) => {
      const point = event.latlng.wrap();
      onPick(round(point.lat), round(point.lng));
    },
  });
  return null;
}

/** The place, brought into view when it is typed outside it. */
function Place({ point }: { point: [number, number] }) {
  const map = useMap();
  const theme = useTheme();
  const [latitude, longitude] = point;
  useEffect(() => {
    if (!map.getBounds().contains([latitude, longitude])) map.setView([latitude, longitude], Math.max(map.getZoom(), 13), { animate: false });
  }, [map, latitude, longitude]);
  return (
    <CircleMarker
      center={point}
      radius={8}
      interactive={false}
      pathOptions={{ color: theme.palette.background.paper, weight: 2, fillColor: theme.palette.primary.main, fillOpacity: 1 }}
    />
  );
}

export default function LocationPicker({ latitude, longitude, onPick, label, hint, centreLabel, height = 280 }: LocationPickerProps) {
  const theme = useTheme();
  const [map, setMap] = useState<LeafletMap | null>(null);
  const point: [number, number] | null = latitude !== null && longitude !== null ? [latitude, longitude] : null;
  // The first view: the place, close; without one, the default view of the base map.
  const [start] = useState(() => point);
  return (
    <Box>
      <Box
        sx={{
          position: 'relative',
          // The map's centre, which the button picks: a cross over the map, not over its controls.
          '&::after': {
            content: '""',
            position: 'absolute',
            left: '50%',
            top: '50%',
            width: 18,
            height: 18,
            transform: 'translate(-50%, -50%)',
            pointerEvents: 'none',
            zIndex: 500,
            background: `linear-gradient(${theme.palette.text.primary}, ${theme.palette.text.primary}) center / 2px 100% no-repeat, linear-gradient(${theme.palette.text.primary}, ${theme.palette.text.primary}) center / 100% 2px no-repeat`,
          },
        }}
      >
        <BaseMap label={label} hint={hint} height={height} testId="location-map" center={start ?? undefined} zoom={start ? PLACE_ZOOM : undefined}>
          <MapHandle onMap={setMap} />
          <PickOnClick onPick={onPick} />
          {point ? <Place point={point} /> : null}
        </BaseMap>
      </Box>
      <Button
        size="small"
        startIcon={<PlaceIcon />}
        disabled={!map}
        sx={{ mt: 1 }}
        data-testid="location-map-centre"
        onClick={() => {
          const centre = map?.getCenter().wrap();
          if (centre) onPick(round(centre.lat), round(centre.lng));
        }}
      >
        {centreLabel}
      </Button>
    </Box>
  );
}
