/** The runtime configuration served as /config.json by both deployments. */
export interface RuntimeConfig {
  /** Base URL of the API; empty means the page's own origin. */
  apiBaseUrl: string;
}

export const DEFAULT_CONFIG: RuntimeConfig = { apiBaseUrl: '' };

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const response = await fetchImpl('/config.json', { cache: 'no-store', headers: { Accept: 'application/json' } });
    if (!response.ok) return DEFAULT_CONFIG;
    const body = (await response.json()) as Partial<RuntimeConfig> | null;
    return { apiBaseUrl: typeof body?.apiBaseUrl === 'string' ? body.apiBaseUrl : '' };
  } catch {
    return DEFAULT_CONFIG;
  }
}

/** The REST endpoint handed to Amplify: the configured base without a trailing slash, else the origin. */
export function resolveApiEndpoint(config: RuntimeConfig, origin: string): string {
  const base = config.apiBaseUrl.trim().replace(/\/+$/, '');
  return base || origin;
}
