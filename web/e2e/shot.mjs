// Manual helper: `node e2e/shot.mjs /path ...` signs in against a running server (BASE_URL) and
// saves screenshots to SHOTS_DIR. Not part of the test run.
import { launchBrowser } from './browser.mjs';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:18080';
const dir = process.env.SHOTS_DIR ?? '/tmp';
const email = process.env.EMAIL ?? 'admin@example.com';
const password = process.env.PASSWORD ?? 'Admin12345!';
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: Number(process.env.WIDTH ?? 1440), height: 900 } });
page.on('console', (m) => console.log(`[console.${m.type()}] ${m.text()} ${m.location()?.url ?? ''}`));
page.on('pageerror', (e) => console.log(`[pageerror] ${e.message}`));
if (process.env.SETTINGS) {
  await page.addInitScript((value) => localStorage.setItem('settings', value), process.env.SETTINGS);
}
if (!process.env.SIGNED_OUT) {
  await page.goto(`${base}/auth/jwt/login`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}
for (const [index, path] of process.argv.slice(2).entries()) {
  await page.goto(`${base}${path}`);
  await page.waitForTimeout(1500);
  const file = `${dir}/shot-${index}.png`;
  await page.screenshot({ path: file, fullPage: true });
  console.log(file, page.url());
}
await browser.close();
