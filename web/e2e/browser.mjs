// Debian's Chromium driven by playwright-core: no browser download, ever.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Records console errors and uncaught exceptions of a page. A failed request the test provokes on
 * purpose (a refused sign-in) is listed in `expected` as a URL part and status while it happens.
 */
export function watchConsole(page, sink) {
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const location = message.location()?.url ?? '';
    const text = message.text();
    const allowed = sink.expected.some(
      (rule) => text.includes(`status of ${rule.status}`) && location.includes(rule.url),
    );
    if (!allowed) sink.errors.push(`${page.url()}: ${text} (${location})`);
  });
  page.on('pageerror', (error) => sink.errors.push(`${page.url()}: uncaught ${error.message}`));
}

/** Signs in on the login page with `account` (`{ email, password }`) and waits for `path`, where the sign-in leads. */
export async function signIn(page, baseUrl, account, path = '/dashboard') {
  await page.goto(`${baseUrl}/auth/jwt/login?returnTo=${encodeURIComponent(path)}`);
  await page.locator('input[name=email]').fill(account.email);
  await page.locator('input[name=password]').fill(account.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname === path);
}
