// Where the session lives between visits: the access token under `accessToken` (spec section 3),
// the refresh token beside it.
export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';

export interface StoredTokens {
  access: string | null;
  refresh: string | null;
}

export function readTokens(storage: Storage = localStorage): StoredTokens {
  try {
    return { access: storage.getItem(ACCESS_TOKEN_KEY), refresh: storage.getItem(REFRESH_TOKEN_KEY) };
  } catch {
    return { access: null, refresh: null };
  }
}

export function writeTokens(access: string, refresh: string | null, storage: Storage = localStorage): void {
  try {
    storage.setItem(ACCESS_TOKEN_KEY, access);
    if (refresh) storage.setItem(REFRESH_TOKEN_KEY, refresh);
    else storage.removeItem(REFRESH_TOKEN_KEY);
  } catch {
    // The session then lasts for this page only.
  }
}

export function clearTokens(storage: Storage = localStorage): void {
  try {
    storage.removeItem(ACCESS_TOKEN_KEY);
    storage.removeItem(REFRESH_TOKEN_KEY);
    storage.removeItem(PROFILE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

// The signed-in user's profile as last read, for the refiller's app to open offline (issue 30):
// kept beside the tokens and dropped with them.
export const PROFILE_KEY = 'profile';

export function readProfileSnapshot<T>(storage: Storage = localStorage): T | null {
  try {
    const text = storage.getItem(PROFILE_KEY);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export function writeProfileSnapshot(profile: unknown, storage: Storage = localStorage): void {
  try {
    if (profile) storage.setItem(PROFILE_KEY, JSON.stringify(profile));
    else storage.removeItem(PROFILE_KEY);
  } catch {
    // Then the app does not open offline.
  }
}
