// Draws the app icons (web/public/icons/*.png) without image libraries: a blue tile with a
// white "play" triangle, anti-aliased by 4x4 supersampling. Run again after changing the look.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/public/icons');
const BLUE = [0x1c, 0x7e, 0xd6];
const WHITE = [0xff, 0xff, 0xff];

/** Coverage-based colour of pixel (x, y): tile (rounded unless maskable, which fills the square) and triangle. */
function pixel(size, x, y, maskable) {
  const S = 4;
  let tile = 0;
  let tri = 0;
  const r = maskable ? 0 : size * 0.18;
  // The play triangle stays inside the maskable safe zone (a centred circle of 80% width).
  const k = maskable ? 0.3 : 0.36;
  const cx = size / 2 + size * 0.04;
  const cy = size / 2;
  const ax = cx - size * k * 0.55;
  const bx = cx + size * k * 0.75;
  const h = size * k * 0.9;
  for (let i = 0; i < S; i++) {
    for (let j = 0; j < S; j++) {
      const px = x + (i + 0.5) / S;
      const py = y + (j + 0.5) / S;
      const dx = Math.max(r - px, px - (size - r), 0);
      const dy = Math.max(r - py, py - (size - r), 0);
      if (dx * dx + dy * dy <= r * r || r === 0) tile++;
      const t = (px - ax) / (bx - ax);
      if (t >= 0 && t <= 1 && Math.abs(py - cy) <= h * (1 - t)) tri++;
    }
  }
  const a = tile / (S * S);
  const w = tri / (S * S);
  const rgb = BLUE.map((c, n) => Math.round(c * (1 - w) + WHITE[n] * w));
  return [...rgb, Math.round(a * 255)];
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size, maskable) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) raw.set(pixel(size, x, y, maskable), y * (size * 4 + 1) + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(out, { recursive: true });
for (const [name, size, maskable] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-512.png', 512, true],
  ['apple-touch-icon-180.png', 180, true],
  ['favicon-32.png', 32, false],
]) {
  fs.writeFileSync(path.join(out, name), png(size, maskable));
  console.log(`${name} ${size}x${size}`);
}
