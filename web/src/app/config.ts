/** The runtime configuration served as /config.json by both deployments. */
export interface RuntimeConfig {
  /** Base URL of the API; empty means the page's own origin. */
  apiBaseUrl: string;
  /**
   * The map tiles of the route planning (a Leaflet URL template, e.g.
   * `https://tiles.example.com/{z}/{x}/{y}.png`). Empty (the default): no tile layer at all, the
   * map draws its markers and routes on a plain background and fetches nothing.
   */
  mapTileUrl: string;
  /** The attribution the tile provider asks for (HTML), shown with its tiles. */
  mapTileAttribution: string;
}

export const DEFAULT_CONFIG: RuntimeConfig = { apiBaseUrl: '', mapTileUrl: '', mapTileAttribution: '' };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The configuration of a parsed `config.json`: every field a string, missing ones empty. */
export function readRuntimeConfig(body: unknown): RuntimeConfig {
  const record = (body && typeof body === 'object' ? body : {}) as Partial<Record<keyof RuntimeConfig, unknown>>;
  return {
    apiBaseUrl: typeof record.apiBaseUrl === 'string' ? record.apiBaseUrl : '',
    mapTileUrl: text(record.mapTileUrl),
    mapTileAttribution: text(record.mapTileAttribution),
  };
}

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const response = await fetchImpl('/config.json', { cache: 'no-store', headers: { Accept: 'application/json' } });
    if (!response.ok) return DEFAULT_CONFIG;
    return readRuntimeConfig(await response.json());
  } catch {
    return DEFAULT_CONFIG;
  }
}

/** The REST endpoint handed to Amplify: the configured base without a trailing slash, else the origin. */
export function resolveApiEndpoint(config: Pick<RuntimeConfig, 'apiBaseUrl'>, origin: string): string {
  const base = config.apiBaseUrl.trim().replace(/\/+$/, '');
  return base || origin;
}

let current: RuntimeConfig = DEFAULT_CONFIG;

/** Keeps the configuration loaded at start for the screens that read it (the map's tiles). */
export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

/** The configuration loaded at start (the default before, and in tests). */
export function runtimeConfig(): RuntimeConfig {
  return current;
}
