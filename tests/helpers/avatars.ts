// Shared setup for the avatar tests: small pictures of each accepted kind, and GET /avatars/{id}.
import { identicon } from '../../src/services/users/identicon.js';
import type { TestApp } from './harness.js';

/** A real 16x16 PNG. */
export const samplePng = identicon(424242, 16);
/** A 1x1 GIF. */
export const sampleGif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** A 1x1 WebP (lossless). */
export const sampleWebp = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
/** The start of a JPEG as far as its frame header (SOI, APP0, SOF0 of 3x2 pixels). */
export const sampleJpeg = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x03, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xd9,
]);

/** A PNG header claiming `w`x`h` pixels (too large for an avatar when over 4096). */
export function pngClaiming(w: number, h: number): Buffer {
  const b = Buffer.from(samplePng);
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
}

export const b64 = (b: Buffer) => b.toString('base64');

export async function getAvatar(app: TestApp, id: number | string, headers: Record<string, string> = {}, query = ''): Promise<{ res: Response; bytes: Buffer }> {
  const res = await fetch(`${app.url}/avatars/${id}${query}`, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Width and height from a PNG's IHDR, after checking the signature. */
export function pngSize(b: Buffer): { width: number; height: number } {
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!b.subarray(0, 8).equals(sig) || b.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
