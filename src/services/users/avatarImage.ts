// What an uploaded avatar is: told from its first bytes (never from a name), with its pixel size read
// from the header where each format keeps it. Pure functions, no I/O.

export type AvatarType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImageInfo {
  type: AvatarType;
  width: number;
  height: number;
}

const startsWith = (b: Buffer, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (b: Buffer, at: number, s: string) => b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

/** The content type the bytes announce, or undefined for anything else. */
export function sniffImageType(b: Buffer): AvatarType | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'image/gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  return undefined;
}

function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM and the restart markers.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > b.length) return undefined;
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    at += 2 + b.readUInt16BE(at + 2);
  }
  return undefined;
}

function webpSize(b: Buffer): { width: number; height: number } | undefined {
  if (ascii(b, 12, 'VP8 ') && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (ascii(b, 12, 'VP8L') && b.length >= 25 && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** Type and pixel size, or undefined when the bytes are not a picture of a kind avatars may be. */
export function imageInfo(b: Buffer): ImageInfo | undefined {
  const type = sniffImageType(b);
  let size: { width: number; height: number } | undefined;
  switch (type) {
    case 'image/png':
      if (b.length >= 24 && ascii(b, 12, 'IHDR')) size = { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
      break;
    case 'image/gif':
      if (b.length >= 10) size = { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
      break;
    case 'image/jpeg':
      size = jpegSize(b);
      break;
    case 'image/webp':
      size = webpSize(b);
      break;
    default:
      return undefined;
  }
  if (!size || size.width <= 0 || size.height <= 0) return undefined;
  return { type: type!, ...size };
}
