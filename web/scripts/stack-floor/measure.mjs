// What the stack floor's two pages load (`npm run size:floor`): the entry and its imports, plus
// the page's chunk and its imports, brotli at the quality `vendfleet serve` sends (5) and at 11.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const assets = join(import.meta.dirname, '..', '..', 'dist-floor', 'assets');
const files = readdirSync(assets).filter((file) => file.endsWith('.js'));
const importsOf = (file) => [...readFileSync(join(assets, file), 'utf8').matchAll(/from\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]);
const brotli = (file, quality) =>
  brotliCompressSync(readFileSync(join(assets, file)), { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }).length;

function load(roots) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    importsOf(file).forEach(visit);
  };
  roots.forEach(visit);
  return [...seen];
}

const entry = files.find((file) => file.startsWith('index-'));
for (const page of ['login', 'grid']) {
  const loaded = load([entry, files.find((file) => file.startsWith(`${page}-`))]);
  const kb = (quality) => (loaded.reduce((sum, file) => sum + brotli(file, quality), 0) / 1024).toFixed(1);
  console.log(`${page.padEnd(6)} ${loaded.length} files  brotli 5: ${kb(5)} KB  brotli 11: ${kb(11)} KB`);
}
