// What the browser tests do as the signed-in administrator: sign in on the login page and land on
// a screen, and call the API with the page's own token (app, dashboard, fleet and session
// tests still read the token themselves).
import { signIn as signInAs } from './browser.mjs';
import { ADMIN } from './server.mjs';

/** Signs in as ADMIN on `baseUrl`'s login page and waits for `path` (where the login returns to). */
export function signIn(page, baseUrl, path) {
  return signInAs(page, baseUrl, ADMIN, path);
}

/** A call with the signed-in user's token, straight from the page: its status and parsed body. */
export async function apiCall(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}
