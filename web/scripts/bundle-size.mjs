// Prints the gzip size of the JavaScript a first visit loads (the entry chunk and its static
// imports) and of what the sign-in screen adds, and fails if either pulls in the data grid.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
if (!entry) throw new Error('no entry script in dist/index.html');

const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g;

function read(file) {
  return readFileSync(join(dist, file), 'utf8');
}

/** The chunk and everything it imports statically. */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const dir = file.slice(0, file.lastIndexOf('/') + 1);
  for (const match of read(file).matchAll(STATIC_IMPORT)) closure(dir + match[1].slice(2), seen);
  return seen;
}

function gzip(files) {
  return [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length, 0);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const initial = closure(entry);
const entryDir = entry.slice(0, entry.lastIndexOf('/') + 1);
const lazy = [...read(entry).matchAll(DYNAMIC_IMPORT)].map((match) => entryDir + match[1].slice(2));
const login = lazy.find((file) => /\/login-[^/]+\.js$/.test(file));
const loginExtra = login ? new Set([...closure(login)].filter((file) => !initial.has(file))) : new Set();
const hasGrid = (files) => [...files].some((file) => read(file).includes('MuiDataGrid'));

console.log(`initial JS: ${initial.size} files, ${kb(gzip(initial))} gzip`);
console.log(`sign-in screen adds: ${loginExtra.size} files, ${kb(gzip(loginExtra))} gzip`);
if (hasGrid(initial) || hasGrid(loginExtra)) {
  console.error('the data grid is in the initial or sign-in bundle');
  process.exit(1);
}
console.log('data grid: not in the initial or sign-in bundle');
