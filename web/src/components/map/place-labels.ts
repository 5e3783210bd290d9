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
}

export interface PlacedLabel {
  name: string;
  latitude: number;
  longitude: number;
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The space kept between two names, in pixels. */
const GAP = 6;
/** The dot left of a name, and the space between them. */
const DOT = 10;

/**
 * The names to show: the places in view with people enough for the zoom, most populous first, each
 * placed (a dot, its name to the right) where it overlaps no name placed before it.
 */
export function chooseLabels(places: readonly Place[], layout: LabelLayout): PlacedLabel[] {
  const least = minPopulation(layout.zoom);
  const candidates = places.filter((place) => place[3] >= least).sort((a, b) => b[3] - a[3]);
  const taken: Box[] = [];
  const chosen: PlacedLabel[] = [];
  for (const [name, latitude, longitude] of candidates) {
    if (chosen.length >= layout.most) break;
    const { x, y } = layout.project(latitude, longitude);
    const box = { left: x - DOT / 2, top: y - layout.lineHeight / 2, right: x + DOT + name.length * layout.charWidth, bottom: y + layout.lineHeight / 2 };
    if (box.left < 0 || box.top < 0 || box.right > layout.width || box.bottom > layout.height) continue;
    if (taken.some((other) => box.left < other.right + GAP && other.left < box.right + GAP && box.top < other.bottom + GAP && other.top < box.bottom + GAP)) continue;
    taken.push(box);
    chosen.push({ name, latitude, longitude });
  }
  return chosen;
}
