// The ground's data, fetched from the app's own origin when a map shows (static files of the
// build, never in the JavaScript): Natural Earth's countries from `world-atlas` (TopoJSON, 1:110m
// for the world, 1:50m closer), and the place names of `virtual:map-places` (GeoNames). Each file
// is fetched once per page; a failed fetch is tried again by the next map that asks.
import type { FeatureCollection, MultiLineString } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110mUrl from 'world-atlas/countries-110m.json?url';
import countries50mUrl from 'world-atlas/countries-50m.json?url';
import { worldUrl } from 'virtual:map-places';
import type { Place, PlaceIndex } from './place-labels';

export interface Ground {
  /** The countries, drawn filled without an outline. */
  land: FeatureCollection;
  /** The coasts (an arc of one country only) and the borders (an arc two countries share). */
  coast: MultiLineString;
  borders: MultiLineString;
}

export type GroundLevel = '110m' | '50m';

/** The coarse world up to zoom 3 (the whole of Europe in view), the finer one from zoom 4. */
export function groundLevel(zoom: number): GroundLevel {
  return zoom < 4 ? '110m' : '50m';
}

const URLS: Record<GroundLevel, string> = { '110m': countries110mUrl, '50m': countries50mUrl };

const cache = new Map<string, Promise<unknown>>();

function fetchOnce<T>(url: string, read: (body: unknown) => T): Promise<T> {
  let pending = cache.get(url) as Promise<T> | undefined;
  if (!pending) {
    pending = fetch(url, { headers: { Accept: 'application/json' } })
      .then((response) => {
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        return response.json() as Promise<unknown>;
      })
      .then(read);
    pending.catch(() => cache.delete(url));
    cache.set(url, pending);
  }
  return pending;
}

export function loadGround(level: GroundLevel): Promise<Ground> {
  return fetchOnce(URLS[level], (body) => {
    const topology = body as Topology<{ countries: GeometryCollection }>;
    const countries = topology.objects.countries;
    return {
      land: feature(topology, countries),
      coast: mesh(topology, countries, (a, b) => a === b),
      borders: mesh(topology, countries, (a, b) => a !== b),
    };
  });
}

/** The first file of the place names: the cells that exist and the cities seen from afar. */
export function loadPlaceIndex(): Promise<PlaceIndex> {
  return fetchOnce(worldUrl, (body) => body as PlaceIndex);
}

/** The towns of one cell (named as `PlaceIndex.cells` names it), beside the first file. */
export function loadPlaceCell(cell: string): Promise<Place[]> {
  return fetchOnce(new URL(`${cell}.json`, new URL(worldUrl, window.location.href)).href, (body) => body as Place[]);
}
