// Draws the app's PNG icons (the favicon's vending machine) for the web app manifest, without any
// image library: `node scripts/pwa-icons.mjs` writes public/pwa-192.png, pwa-512.png and
// pwa-maskable-512.png. Run again only when the favicon changes.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const hex = (value) => [1, 3, 5].map((i) => parseInt(value.slice(i, i + 2), 16));

/** The favicon's shapes on its 64 × 64 grid: rounded rectangles and a circle. */
const SHAPES = [
  { x: 18, y: 12, w: 28, h: 40, r: 4, colour: '#FFFFFF' },
  { x: 22, y: 17, w: 20, h: 18, r: 2, colour: '#C8FAD6' },
  { x: 22, y: 39, w: 12, h: 4, r: 2, colour: '#007867' },
  { x: 36.5, y: 38.5, w: 5, h: 5, r: 2.5, colour: '#007867' },
];
const BACKGROUND = '#00A76F';

function inRounded(px, py, { x, y, w, h, r }) {
  if (px < x || py < y || px > x + w || py > y + h) return false;
  const cx = Math.min(Math.max(px, x + r), x + w - r);
  const cy = Math.min(Math.max(py, y + r), y + h - r);
  return (px - cx) ** 2 + (py - cy) ** 2 <= r * r;
}

/** RGBA pixels of the icon at `size`; a maskable icon fills the square and keeps the drawing in its safe zone. */
function draw(size, maskable) {
  const pixels = Buffer.alloc(size * size * 4);
  const scale = maskable ? 0.8 : 1;
  const offset = (64 * (1 - scale)) / 2;
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      const gx = ((col + 0.5) / size) * 64;
      const gy = ((row + 0.5) / size) * 64;
      let colour = null;
      if (maskable || inRounded(gx, gy, { x: 0, y: 0, w: 64, h: 64, r: 14 })) colour = BACKGROUND;
      const sx = (gx - offset) / scale;
      const sy = (gy - offset) / scale;
      for (const shape of SHAPES) if (inRounded(sx, sy, shape)) colour = shape.colour;
      const at = (row * size + col) * 4;
      if (colour) {
        const [r, g, b] = hex(colour);
        pixels.set([r, g, b, 255], at);
      }
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let row = 0; row < size; row += 1) pixels.copy(raw, row * (size * 4 + 1) + 1, row * size * 4, (row + 1) * size * 4);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

for (const [file, size, maskable] of [
  ['pwa-192.png', 192, false],
  ['pwa-512.png', 512, false],
  ['pwa-maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
]) {
  writeFileSync(new URL(`../public/${file}`, import.meta.url), png(size, draw(size, maskable)));
  console.log(`public/${file}`);
}
