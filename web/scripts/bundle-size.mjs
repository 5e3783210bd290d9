// Prints the compressed size of the JavaScript a first visit loads, for the sign-in page and for
// every other first screen, in brotli at the quality `vendfleet serve` sends (5) and gzip. Fails
// above the targets of issue 29 (sign-in page 150 KB, any first screen 350 KB, brotli) or if the
// sign-in page pulls in the data grid. Needs only `dist/` (a prior `npm run build`).
//
// What a first visit loads, read from the chunks' imports:
// - every page: the entry and its static imports, and one language's shared strings (the app
//   renders after them; the heaviest language is counted);
// - a screen: its chunk, its static imports and what it imports lazily itself (a chart or a map it
//   shows at once);
// - a screen behind sign-in also: the dashboard layout (with the query cache), the areas' strings of the language and the
//   HTTP transport (its first request loads aws-amplify).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TARGET_SIGN_IN = 150 * 1024;
const TARGET_SCREEN = 350 * 1024;

/** Lazy chunks of the start-up that are not screens, by the name of their module. */
const SHARED_STRINGS = /^[a-z]{2}$/;
const AREA_STRINGS = /^areas-[a-z]{2}$/;
const LAYOUT = 'signed-in';
const TRANSPORT = 'amplify-transport';
/** Loaded only for a right-to-left language, which no first visit of ours has. */
const ON_DEMAND = ['rtl-cache'];
/** The screens outside the dashboard layout: no session, no request at first. */
const PUBLIC_SCREENS = ['login', 'register', 'not-found'];

const dist = join(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
if (!entry) throw new Error('no entry script in dist/index.html (run `npm run build` first)');

const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g;

const cache = new Map();
function read(file) {
  if (!cache.has(file)) cache.set(file, readFileSync(join(dist, file)));
  return cache.get(file);
}
const text = (file) => read(file).toString('utf8');
const dirOf = (file) => file.slice(0, file.lastIndexOf('/') + 1);
const imported = (file, pattern) => [...text(file).matchAll(pattern)].map((match) => dirOf(file) + match[1].slice(2));
/** The module a chunk is named after: `assets/login-AbC123.js` → `login`. */
const nameOf = (file) => file.slice(file.lastIndexOf('/') + 1).replace(/-[\w-]{8}\.js$/, '');

/** The chunks and everything they import statically. */
function closure(files, seen = new Set()) {
  for (const file of files) {
    if (seen.has(file)) continue;
    seen.add(file);
    closure(imported(file, STATIC_IMPORT), seen);
  }
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

const initial = closure([entry]);
const lazy = new Set([...initial].flatMap((file) => imported(file, DYNAMIC_IMPORT)));
const byName = (name) => [...lazy].filter((file) => nameOf(file) === name);
const named = (pattern) => [...lazy].filter((file) => pattern.test(nameOf(file)));
/** The heaviest of the languages' chunks, with what it imports, over `base`. */
function heaviestLanguage(pattern, base) {
  const options = named(pattern).map((file) => closure([file], new Set(base)));
  if (options.length === 0) throw new Error(`no chunk named ${pattern} among the lazy chunks`);
  return options.sort((a, b) => total(b, 'brotli') - total(a, 'brotli'))[0];
}
const start = heaviestLanguage(SHARED_STRINGS, initial);
const signedIn = closure([...byName(LAYOUT), ...byName(TRANSPORT)], heaviestLanguage(AREA_STRINGS, start));
if (byName(LAYOUT).length === 0 || byName(TRANSPORT).length === 0) throw new Error(`no ${LAYOUT} or ${TRANSPORT} chunk among the lazy chunks`);

/** A screen's chunk with its static imports and, recursively, its own lazy imports. */
function screenFiles(file, base) {
  const files = closure([file], new Set(base));
  for (const own of [...files].filter((chunk) => !base.has(chunk))) {
    for (const next of imported(own, DYNAMIC_IMPORT)) if (!files.has(next)) for (const chunk of screenFiles(next, files)) files.add(chunk);
  }
  return files;
}

const notScreens = new Set([...named(SHARED_STRINGS), ...named(AREA_STRINGS), ...byName(LAYOUT), ...byName(TRANSPORT), ...ON_DEMAND.flatMap(byName)]);
const screens = [...lazy]
  .filter((file) => !notScreens.has(file))
  .map((file) => {
    const open = PUBLIC_SCREENS.includes(nameOf(file));
    const files = screenFiles(file, open ? start : signedIn);
    return { name: nameOf(file), file, open, files, brotli: total(files, 'brotli'), gzip: total(files, 'gzip') };
  })
  .sort((a, b) => b.brotli - a.brotli);
const signIn = screens.find((screen) => screen.name === 'login');
if (!signIn) throw new Error('no login chunk among the lazy chunks');

const rows = [
  ['start-up (entry, its imports, shared strings)', start.size, total(start, 'brotli'), total(start, 'gzip'), ''],
  ['sign-in page', signIn.files.size, signIn.brotli, signIn.gzip, TARGET_SIGN_IN],
  ...screens
    .filter((screen) => screen !== signIn)
    .map((screen) => [`${screen.name}${screen.open ? '' : ' (signed in)'}`, screen.files.size, screen.brotli, screen.gzip, TARGET_SCREEN]),
];
const header = ['page', 'files', 'brotli', 'gzip', 'target'];
const cells = rows.map(([page, files, brotli, gzip, target]) => [
  page,
  String(files),
  kb(brotli),
  kb(gzip),
  target ? `${brotli > target ? 'OVER ' : ''}${kb(target)}` : '',
]);
const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column].length)));
const format = (row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
console.log(format(header));
for (const row of cells) console.log(format(row));

/** `npm run size -- --files NAME`: the files a page loads, heaviest first. */
const asked = process.argv.indexOf('--files');
if (asked > 0) {
  const name = process.argv[asked + 1];
  const screen = name === 'start-up' ? { files: start } : screens.find((candidate) => candidate.name === name);
  if (!screen) throw new Error(`no page named ${name}`);
  for (const file of [...screen.files].sort((a, b) => size(b).brotli - size(a).brotli)) console.log(`${kb(size(file).brotli).padStart(10)}  ${file}`);
}

const failures = [];
if (screens.length === 0) failures.push('no screen chunk found');
if ([...signIn.files].some((file) => text(file).includes('MuiDataGrid'))) failures.push('the data grid is in the sign-in page');
if (signIn.brotli > TARGET_SIGN_IN) failures.push(`sign-in page above target: ${kb(signIn.brotli)} > ${kb(TARGET_SIGN_IN)}`);
for (const screen of screens) {
  if (screen !== signIn && screen.brotli > TARGET_SCREEN) failures.push(`${screen.name} above target: ${kb(screen.brotli)} > ${kb(TARGET_SCREEN)}`);
}
if (failures.length > 0) {
  for (const failure of failures) console.error(failure);
  process.exit(1);
}
console.log('data grid: not in the sign-in page; every page within target');
