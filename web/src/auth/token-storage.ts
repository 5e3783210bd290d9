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
  } catch {
    // Nothing stored, nothing to clear.
  }
}
