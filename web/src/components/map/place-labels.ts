// Which place names a map shows at a view: the ones big enough for its zoom, most populous first,
// each only where it overlaps no name already placed. No screen here: `project` turns a place into
// the map's pixels.

/** A place as the data files hold it: name, latitude, longitude, population. */
export type Place = [name: string, latitude: number, longitude: number, population: number];

/** The first file: the cell size, the cells that exist, and the cities seen from afar. */
export interface PlaceIndex {
  cellDegrees: number;
  cells: string[];
  places: Place[];
}

export interface View {
  south: number;
  west: number;
  north: number;
  east: number;
}

/**
 * The fewest people a place needs to be named at a zoom: the big cities on the whole fleet's view,
 * every town of 1,000 people at a city's (zoom 11, about 40 km across a map).
 */
export function minPopulation(zoom: number): number {
  if (zoom >= 11) return 0;
  const thresholds: Record<number, number> = { 10: 5_000, 9: 15_000, 8: 40_000, 7: 100_000, 6: 250_000, 5: 500_000, 4: 1_000_000 };
  return thresholds[Math.floor(zoom)] ?? 3_000_000;
}

/** From this zoom the towns of the cells in view are fetched (the first file has the cities above 100,000). */
export const CELL_ZOOM = 8;

/** The cells (of those that exist) a view touches; none below `CELL_ZOOM`. */
export function cellsInView(view: View, zoom: number, index: Pick<PlaceIndex, 'cellDegrees' | 'cells'>): string[] {
  if (zoom < CELL_ZOOM) return [];
  const size = index.cellDegrees;
  const existing = new Set(index.cells);
  const cells: string[] = [];
  const south = Math.floor(Math.max(-90, view.south) / size);
  const north = Math.floor(Math.min(89.999, view.north) / size);
  const west = Math.floor(Math.max(-180, view.west) / size);
  const east = Math.floor(Math.min(179.999, view.east) / size);
  for (let lat = south; lat <= north; lat += 1) {
    for (let lon = west; lon <= east; lon += 1) {
      const name = `${lat}_${lon}`;
      if (existing.has(name)) cells.push(name);
    }
  }
  return cells;
}

export interface LabelLayout {
  zoom: number;
  /** The map's size in pixels. */
  width: number;
  height: number;
  /** A place's position on the map, in pixels from its top left corner. */
  project: (latitude: number, longitude: number) => { x: number; y: number };
  /** The width of one character and the height of a line, in pixels (an estimate: no text is measured). */
  charWidth: number;
  lineHeight: number;
  /** At most this many names. */
  most: number;
  /** What a name must not cover (the markers, in pixels), and how far around each. */
  avoid?: readonly { x: number; y: number }[];
  avoidRadius?: number;
}

export interface PlacedLabel {
  name: string;
  latitude: number;
  longitude: number;
  /** Which side of its dot the name is written on, and how much further than next to it (clear of a marker on the place). */
  side: 'right' | 'left';
  offset: number;
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The space kept between two names, in pixels. */
const GAP = 6;
/** The dot of a place, with the space around it. */
const DOT = 10;
/** From a place to the start of its name, in pixels (the icon's CSS places the name so). */
export const NAME_GAP = 6;

const overlaps = (a: Box, b: Box) => a.left < b.right + GAP && b.left < a.right + GAP && a.top < b.bottom + GAP && b.top < a.bottom + GAP;

/**
 * The names to show: the places in view with people enough for the zoom, most populous first, each
 * placed (a dot, its name to the right, else to the left; when a marker covers the place, beyond
 * the marker) where it overlaps neither a name placed before it nor a marker to avoid.
 */
export function chooseLabels(places: readonly Place[], layout: LabelLayout): PlacedLabel[] {
  const least = minPopulation(layout.zoom);
  const candidates = places.filter((place) => place[3] >= least).sort((a, b) => b[3] - a[3]);
  const radius = layout.avoidRadius ?? 0;
  const markers: Box[] = (layout.avoid ?? []).map(({ x, y }) => ({ left: x - radius, top: y - radius, right: x + radius, bottom: y + radius }));
  const taken: Box[] = [...markers];
  const chosen: PlacedLabel[] = [];
  const half = layout.lineHeight / 2;
  for (const [name, latitude, longitude] of candidates) {
    if (chosen.length >= layout.most) break;
    const { x, y } = layout.project(latitude, longitude);
    const text = name.length * layout.charWidth;
    // The text starts `NAME_GAP + offset` from the dot; beyond a marker on the place, clear of its box and gap.
    const covered = markers.some((marker) => x >= marker.left && x <= marker.right && y >= marker.top && y <= marker.bottom);
    const placements = (covered ? [0, radius + GAP] : [0]).flatMap((offset): [PlacedLabel['side'], number, Box][] => {
      const start = NAME_GAP + offset;
      const dot = offset === 0 ? DOT / 2 : 1 - start;
      return [
        ['right', offset, { left: x - dot, top: y - half, right: x + start + text, bottom: y + half }],
        ['left', offset, { left: x - start - text, top: y - half, right: x + dot, bottom: y + half }],
      ];
    });
    const fit = placements.find(([, , box]) => box.left >= 0 && box.top >= 0 && box.right <= layout.width && box.bottom <= layout.height && !taken.some((other) => overlaps(box, other)));
    if (!fit) continue;
    const [side, offset, box] = fit;
    taken.push(box);
    chosen.push({ name, latitude, longitude, side, offset });
  }
  return chosen;
}
