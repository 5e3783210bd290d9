// Prints the compressed size of the JavaScript a first visit loads: the sign-in page (the entry
// chunk, its static imports and the sign-in screen's chunk) and every other first screen (the
// entry plus that screen's chunk and its imports), in brotli (what `vendfleet serve` sends a
// browser that accepts it) and gzip. Fails above the targets of issue 29 (sign-in page 150 KB,
// any first screen 350 KB, brotli) or if the sign-in page pulls in the data grid.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TARGET_SIGN_IN = 150 * 1024;
const TARGET_SCREEN = 350 * 1024;

const dist = join(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
if (!entry) throw new Error('no entry script in dist/index.html');

const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g;

const cache = new Map();
function read(file) {
  if (!cache.has(file)) cache.set(file, readFileSync(join(dist, file)));
  return cache.get(file);
}
const text = (file) => read(file).toString('utf8');
const dirOf = (file) => file.slice(0, file.lastIndexOf('/') + 1);

/** The chunk and everything it imports statically. */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of text(file).matchAll(STATIC_IMPORT)) closure(dirOf(file) + match[1].slice(2), seen);
  return seen;
}

const sizes = new Map();
function size(file) {
  if (!sizes.has(file)) {
    const bytes = read(file);
    sizes.set(file, {
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length,
    });
  }
  return sizes.get(file);
}
const total = (files, kind) => [...files].reduce((sum, file) => sum + size(file)[kind], 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const initial = closure(entry);
// The screens: the lazy chunks the initial files import (the router's pages).
const lazy = new Set();
for (const file of initial) for (const match of text(file).matchAll(DYNAMIC_IMPORT)) lazy.add(dirOf(file) + match[1].slice(2));
const login = [...lazy].find((file) => /\/login-[^/]+\.js$/.test(file));
const withInitial = (file) => new Set([...initial, ...closure(file)]);
const signIn = login ? withInitial(login) : initial;
const screens = [...lazy].filter((file) => file !== login).map((file) => ({ file, files: withInitial(file) }));
screens.sort((a, b) => total(b.files, 'brotli') - total(a.files, 'brotli'));
const heaviest = screens[0];

const hasGrid = (files) => [...files].some((file) => text(file).includes('MuiDataGrid'));
const line = (name, files) => `${name}: ${files.size} files, ${kb(total(files, 'brotli'))} brotli, ${kb(total(files, 'gzip'))} gzip`;

console.log(line('initial JS (entry and its imports)', initial));
console.log(`${line('sign-in page', signIn)} (target ${kb(TARGET_SIGN_IN)} brotli)`);
if (heaviest) console.log(`${line(`heaviest first screen (${heaviest.file})`, heaviest.files)} (target ${kb(TARGET_SCREEN)} brotli)`);
for (const { file, files } of screens.slice(1, 6)) console.log(`  then ${file}: ${kb(total(files, 'brotli'))} brotli`);

let failed = false;
if (hasGrid(signIn)) {
  console.error('the data grid is in the sign-in page');
  failed = true;
} else console.log('data grid: not in the sign-in page');
if (total(signIn, 'brotli') > TARGET_SIGN_IN) {
  console.error(`sign-in page above target: ${kb(total(signIn, 'brotli'))} > ${kb(TARGET_SIGN_IN)}`);
  failed = true;
}
if (heaviest && total(heaviest.files, 'brotli') > TARGET_SCREEN) {
  console.error(`a first screen above target: ${heaviest.file} ${kb(total(heaviest.files, 'brotli'))} > ${kb(TARGET_SCREEN)}`);
  failed = true;
}
if (failed) process.exit(1);
