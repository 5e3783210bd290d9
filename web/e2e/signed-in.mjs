// What the browser tests do as the signed-in administrator: sign in on the login page and land on
// a screen, and call the API with the page's own token (app, dashboard, fleet and session
// tests still read the token themselves).
import { signIn as signInAs, watchConsole } from './browser.mjs';
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

/**
 * A page of a new browser context (1440 × 900, American English, reduced motion; `options` adds
 * to or replaces these), its console watched into `consoleLog`, signed in as ADMIN on the dashboard.
 */
export async function signedInPage(browser, baseUrl, consoleLog, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  watchConsole(page, consoleLog);
  await signIn(page, baseUrl, '/dashboard');
  return page;
}
