// Which files may be attached: Gitea's upload.Verify. The allow-list holds extensions (`.zip`) and MIME
// patterns (`image/*`); a file passes when its name's extension is listed or its sniffed type matches a
// listed pattern. An empty list or `*/*` allows anything.
import { extname } from 'node:path';

const signatures: Array<{ type: string; test: (b: Buffer) => boolean }> = [
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'application/pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  { type: 'application/zip', test: (b) => ['PK\x03\x04', 'PK\x05\x06', 'PK\x07\x08'].includes(b.subarray(0, 4).toString('latin1')) },
  { type: 'application/x-gzip', test: (b) => b.length >= 3 && b[0] === 0x1f && b[1] === 0x8b && b[2] === 0x08 },
];

// Go's http.DetectContentType: these bytes never occur in text.
const binaryByte = (c: number) => c <= 0x08 || c === 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f);

/** The MIME type of a file from its first bytes (a small table, then text or binary). */
export function sniffType(head: Buffer): string {
  for (const s of signatures) if (s.test(head)) return s.type;
  return head.some(binaryByte) ? 'application/octet-stream' : 'text/plain';
}

export function allowedTypeList(allowed: string): string[] {
  // `|` separated lists are an older Gitea form.
  return allowed.replaceAll('|', ',').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
}

/** Whether a file named `name` starting with `head` may be attached under `allowed`. */
export function typeAllowed(allowed: string, name: string, head: Buffer): boolean {
  const list = allowedTypeList(allowed);
  if (list.length === 0 || list.includes('*/*')) return true;
  const ext = extname(name).toLowerCase();
  const mime = sniffType(head);
  return list.some((entry) =>
    entry.startsWith('.') ? entry === ext : entry === mime || (entry.endsWith('/*') && mime.startsWith(entry.slice(0, -1))),
  );
}

/**
 * The name to store: the last path segment, without control or direction-override characters, trimmed.
 * Empty when nothing is left.
 */
export function sanitizeAttachmentName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return clean === '.' || clean === '..' ? '' : clean;
}
