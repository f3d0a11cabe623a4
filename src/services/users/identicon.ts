// The picture behind avatar_url for an account without an uploaded avatar: a 5x5 grid, mirrored left to
// right, its cells and colour taken from a SHA-256 of the account's id, so the same id always gives the
// same picture. Encoded as an 8-bit RGB PNG with Node's zlib; no I/O.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export const IDENTICON_DEFAULT_SIZE = 290;
export const IDENTICON_MIN_SIZE = 16;
export const IDENTICON_MAX_SIZE = 512;

const crcTable = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** HSL (h in [0, 360), s and l in [0, 1]) to 8-bit RGB. */
function hsl(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** The size a `size` query asks for, clamped; the default for anything that is not a number. */
export function identiconSize(query: unknown): number {
  const n = typeof query === 'string' && /^\d{1,6}$/.test(query) ? Number(query) : NaN;
  if (!Number.isFinite(n)) return IDENTICON_DEFAULT_SIZE;
  return Math.min(IDENTICON_MAX_SIZE, Math.max(IDENTICON_MIN_SIZE, n));
}

export function identicon(id: number, size = IDENTICON_DEFAULT_SIZE): Buffer {
  const hash = createHash('sha256').update(`anvil-identicon:${id}`).digest();
  const fg = hsl((hash.readUInt16BE(0) % 360), 0.45 + (hash[2]! % 20) / 100, 0.5 + (hash[3]! % 10) / 100);
  const bg: [number, number, number] = [240, 240, 240];
  // 15 cells decide the picture (3 columns, the last two mirrored); at least one is always on.
  const on: boolean[][] = [];
  let any = false;
  for (let row = 0; row < 5; row++) {
    on.push([]);
    for (let col = 0; col < 3; col++) {
      const bit = ((hash[4 + row * 3 + col]! >> 0) & 1) === 1;
      on[row]!.push(bit);
      any ||= bit;
    }
  }
  if (!any) on[2]![2] = true;
  const cellAt = (row: number, col: number) => on[row]![col < 3 ? col : 4 - col]!;
  const cell = Math.floor(size / 6);
  const margin = Math.floor((size - cell * 5) / 2);
  const stride = size * 3 + 1;
  const raw = Buffer.alloc(stride * size);
  for (let y = 0; y < size; y++) {
    const rowStart = y * stride;
    raw[rowStart] = 0; // filter: none
    const gy = Math.floor((y - margin) / cell);
    for (let x = 0; x < size; x++) {
      const gx = Math.floor((x - margin) / cell);
      const inGrid = y >= margin && x >= margin && gy < 5 && gx < 5;
      const [r, g, b] = inGrid && cellAt(gy, gx) ? fg : bg;
      const at = rowStart + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
