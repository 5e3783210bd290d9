// Starts `vendfleet serve` on a temporary data directory and a free port for the browser tests.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ADMIN = { email: 'admin@vendfleet.test', password: 'Admin-e2e-pass-1' };

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      lastError = new Error(`status ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer ${url}: ${lastError}`);
}

/**
 * Starts the server; `options.env` adds variables to its environment (e.g.
 * `{ VENDFLEET_EXPORT_INLINE_ROWS: '1' }` to queue every export as a background job), and
 * `options.seed` (`{ machines: 4, days: 20 }`) seeds a demo fleet with that many days of sales
 * ending now (`seed-demo`, always with seed 1, acting as ADMIN).
 */
export async function startServer(options = {}) {
  const bin = resolve(process.env.VENDFLEET_BIN ?? '../target/debug/vendfleet');
  if (!existsSync(bin)) throw new Error(`vendfleet binary not found at ${bin} (set VENDFLEET_BIN)`);
  // VENDFLEET_WEB serves another build (e.g. an older commit's dist, to measure a before).
  const web = resolve(process.env.VENDFLEET_WEB ?? 'dist');
  if (!existsSync(join(web, 'index.html'))) throw new Error(`${web} has no index.html: run \`npm run build\` first`);
  const data = mkdtempSync(join(tmpdir(), 'vendfleet-e2e-'));
  const env = { ...process.env };
  delete env.VENDFLEET_OPEN_REGISTRATION;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined || value === null) delete env[name];
    else env[name] = String(value);
  }
  const created = spawnSync(bin, ['create-admin', '--data', data, '--email', ADMIN.email, '--password', ADMIN.password], {
    env,
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`create-admin failed: ${created.stderr}`);
  if (options.seed) {
    const { machines = 4, days = 20 } = options.seed;
    const seeded = spawnSync(
      bin,
      ['seed-demo', '--data', data, '--machines', String(machines), '--days', String(days), '--seed', '1', '--email', ADMIN.email],
      { env, encoding: 'utf8' },
    );
    if (seeded.status !== 0) throw new Error(`seed-demo failed: ${seeded.stderr}`);
  }
  const port = await freePort();
  const logs = [];
  const child = spawn(bin, ['serve', '--data', data, '--port', String(port), '--web', web], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => logs.push(String(chunk)));
  child.stderr.on('data', (chunk) => logs.push(String(chunk)));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${baseUrl}/config.json`, 30_000);
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`${error.message}\n${logs.join('')}`, { cause: error });
  }
  return {
    baseUrl,
    /** The data directory (DATA): the database, blobs and the mail outbox. */
    data,
    logs,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}
