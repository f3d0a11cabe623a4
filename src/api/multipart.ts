// multipart/form-data bodies, streamed: each file part goes to `<tmpDir>/<uuid>` as it arrives and is
// never held whole in memory; the request is read one chunk at a time, the next only once the previous
// one is on disk. Limits hold while streaming: a declared Content-Length over the limit is refused
// before anything is read; a body that crosses it is cut off, its partial file deleted, and 413 answered.
// Whatever goes wrong, no file of this request is left in tmpDir; files that survive the request are the
// caller's to move (and `discardUploads` removes the rest).
import { randomUUID } from 'node:crypto';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Context } from 'koa';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HttpError } from './errors.js';

export interface UploadedFile {
  /** Where the bytes are until a service moves them. */
  path: string;
  /** The part's file name as the client sent it: not sanitised. */
  filename: string;
  /** The part's declared Content-Type (clients often send application/octet-stream). */
  mimeType: string;
  size: number;
  /** The first bytes, for content sniffing. */
  head: Buffer;
}

export interface MultipartBody<F extends string = string> {
  fields: Record<string, string>;
  /** The first file part of each name. */
  files: Partial<Record<F, UploadedFile>>;
}

export interface MultipartLimits {
  tmpDir: string;
  maxFileBytes: number;
  maxFiles: number;
}

const headBytes = 512;
const maxHeaderBytes = 16 * 1024;
const maxFieldBytes = 64 * 1024;

/**
 * Every socket chunk of an upload is a new 64 KiB buffer whose memory lives outside V8's heap; its tiny
 * JS object never fills the young generation, so nothing collects it until tens of megabytes have
 * piled up (and the allocator keeps the pages). A young-generation collection every few megabytes
 * streamed (about a millisecond) keeps a 100 MB upload from growing the process by more than that.
 */
const collectEveryBytes = 8 * 1024 * 1024;
const minorGc: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (opts: { type: 'minor' }) => void;
  return () => gc({ type: 'minor' });
})();
/** Room for boundaries, part headers and small fields beside the file. */
const overheadBytes = 64 * 1024;

const tooLarge = (limits: MultipartLimits) =>
  new HttpError(413, `the file is larger than the maximum attachment size (${limits.maxFileBytes / 1024 / 1024} MiB)`);
const malformed = (why: string) => new HttpError(422, `[attachment]: unreadable multipart body: ${why}`);

/** The boundary; undefined when the body is not multipart/form-data, empty when it has none. */
function boundaryOf(contentType: string): string | undefined {
  const [type = '', ...params] = splitParams(contentType);
  if (type.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  return paramsOf(params).get('boundary') ?? '';
}

/** `a; b="x;y"; c` → ['a', ' b="x;y"', ' c']: splits on semicolons outside quotes. */
function splitParams(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted && c === '\\' && i + 1 < value.length) {
      cur += c + value[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function paramsOf(parts: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of parts) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase();
    let value = p.slice(eq + 1).trim();
    // As Go's mime package, a backslash escapes only a special character: browsers send Windows paths raw.
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\([()<>@,;:\\"/[\]?=])/g, '$1');
    if (key.endsWith('*')) {
      // RFC 5987: charset'lang'percent-encoded; it wins over the plain parameter.
      const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
      if (!m) continue;
      try {
        out.set(key.slice(0, -1), decodeURIComponent(m[2]!));
      } catch {
        continue;
      }
    } else if (!out.has(key)) out.set(key, value);
  }
  return out;
}

interface PartHeaders {
  name: string;
  filename?: string;
  mimeType: string;
}

function parsePartHeaders(raw: string): PartHeaders {
  let disposition: Map<string, string> | undefined;
  let mimeType = 'application/octet-stream';
  for (const line of raw.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') {
      const [kind = '', ...params] = splitParams(value);
      if (kind.trim().toLowerCase() !== 'form-data') throw malformed('a part is not form-data');
      disposition = paramsOf(params);
    } else if (key === 'content-type' && value) mimeType = value;
  }
  const name = disposition?.get('name');
  if (name === undefined) throw malformed('a part has no name');
  // As Go's multipart: a part with an empty file name is a plain field.
  const filename = disposition!.get('filename') || undefined;
  return { name, filename, mimeType };
}

/** Closes and deletes a file that is not to be kept; never throws. */
async function dispose(handle: FileHandle | undefined, path: string): Promise<void> {
  await handle?.close().catch(() => {});
  await rm(path, { force: true }).catch(() => {});
}

/** Deletes every uploaded file still in the temporary folder (those a service did not move). */
export async function discardUploads(body: MultipartBody): Promise<void> {
  await Promise.all(Object.values(body.files).map((f) => f && rm(f.path, { force: true }).catch(() => {})));
}

/**
 * Lets the rest of a refused body flow away, but not forever: past `cap` more bytes the connection is
 * closed. Many clients (fetch among them) read the answer only once they have sent the whole body and
 * report a reset connection instead of the 413, so a moderately oversized upload is drained whole.
 */
function discardRest(req: IncomingMessage, cap: number): void {
  if (req.complete || req.destroyed) return;
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > cap) req.socket?.destroy();
  });
  req.on('error', () => {});
  req.resume();
}

type State = 'preamble' | 'boundary' | 'headers' | 'body' | 'done';

/** Reads a multipart/form-data body; a body of another type has no parts. */
export async function readMultipart(ctx: Context, limits: MultipartLimits): Promise<MultipartBody> {
  const req = ctx.req;
  const result: MultipartBody = { fields: {}, files: {} };
  const maxBody = limits.maxFileBytes + overheadBytes;
  const drainCap = 8 * maxBody;
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > maxBody) {
    discardRest(req, drainCap);
    throw tooLarge(limits);
  }
  const boundary = boundaryOf(ctx.get('Content-Type'));
  if (boundary === undefined) return result; // Node discards the unread body once the answer is sent.
  if (!boundary || boundary.length > 200) {
    discardRest(req, drainCap);
    throw malformed('bad boundary');
  }
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length - 1;

  let state = 'preamble' as State;
  // The body is read as if it began with CRLF, so the first boundary looks like every other one.
  let buf: Buffer = Buffer.from('\r\n');
  let received = 0;
  let fileCount = 0;
  let fieldBytes = 0;
  let part: PartHeaders | undefined;
  let file: { handle?: FileHandle; upload: UploadedFile } | undefined;
  let field: Buffer[] | undefined;

  const startPart = async (headers: PartHeaders) => {
    part = headers;
    if (headers.filename === undefined) {
      field = [];
      return;
    }
    if (result.files[headers.name]) return; // later files of the same name are skipped, as Go's FormFile
    if (++fileCount > limits.maxFiles) throw new HttpError(422, `too many files in one upload (at most ${limits.maxFiles})`);
    await mkdir(limits.tmpDir, { recursive: true });
    const upload: UploadedFile = { path: join(limits.tmpDir, randomUUID()), filename: headers.filename, mimeType: headers.mimeType, size: 0, head: Buffer.alloc(0) };
    file = { upload };
    file.handle = await open(upload.path, 'wx');
  };

  const partData = async (data: Buffer) => {
    if (data.length === 0) return;
    if (field) {
      fieldBytes += data.length;
      if (fieldBytes > maxFieldBytes) throw new HttpError(413, `form fields are larger than ${maxFieldBytes} bytes`);
      field.push(Buffer.from(data));
    } else if (file) {
      const u = file.upload;
      u.size += data.length;
      if (u.size > limits.maxFileBytes) throw tooLarge(limits);
      if (u.head.length < headBytes) u.head = Buffer.concat([u.head, data.subarray(0, headBytes - u.head.length)]);
      await file.handle!.write(data);
    }
  };

  const endPart = async () => {
    if (field) {
      result.fields[part!.name] ??= Buffer.concat(field).toString('utf8');
    } else if (file) {
      const f = file;
      file = undefined;
      await f.handle!.close();
      f.handle = undefined;
      result.files[part!.name] = f.upload;
    }
    field = undefined;
    part = undefined;
  };

  /** Consumes what it can of `buf`; returns false when it needs more bytes. */
  const step = async (): Promise<boolean> => {
    switch (state) {
      case 'preamble': {
        const at = buf.indexOf(delimiter);
        if (at < 0) {
          buf = buf.subarray(Math.max(0, buf.length - keep));
          return false;
        }
        buf = buf.subarray(at + delimiter.length);
        state = 'boundary';
        return true;
      }
      case 'boundary': {
        if (buf.length < 2) return false;
        if (buf[0] === 0x2d && buf[1] === 0x2d) {
          state = 'done';
          return false;
        }
        const eol = buf.indexOf('\r\n');
        if (eol < 0) {
          if (buf.length > 256) throw malformed('bad boundary line');
          return false;
        }
        // RFC 2046 allows transport padding (spaces, tabs) after a boundary.
        if (!/^[ \t]*$/.test(buf.subarray(0, eol).toString('latin1'))) throw malformed('bad boundary line');
        buf = buf.subarray(eol + 2);
        state = 'headers';
        return true;
      }
      case 'headers': {
        const end = buf.subarray(0, 2).toString('latin1') === '\r\n' ? 0 : buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buf.length > maxHeaderBytes) throw malformed('part headers too large');
          return false;
        }
        const raw = buf.subarray(0, end).toString('utf8');
        buf = buf.subarray(end === 0 ? 2 : end + 4);
        await startPart(parsePartHeaders(raw));
        state = 'body';
        return true;
      }
      case 'body': {
        const at = buf.indexOf(delimiter);
        if (at < 0) {
          const safe = Math.max(0, buf.length - keep);
          await partData(buf.subarray(0, safe));
          buf = Buffer.from(buf.subarray(safe)); // a copy: the chunk it came from can go
          return false;
        }
        await partData(buf.subarray(0, at));
        await endPart();
        buf = buf.subarray(at + delimiter.length);
        state = 'boundary';
        return true;
      }
      case 'done':
        return false;
    }
  };

  try {
    // destroyOnReturn false: leaving the loop early must not reset the connection before the 413 is sent.
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      if (Math.floor((received + chunk.length) / collectEveryBytes) > Math.floor(received / collectEveryBytes)) minorGc();
      received += chunk.length;
      if (received > maxBody) throw tooLarge(limits);
      if (state === 'done') continue; // the epilogue
      if (state === 'body' && buf.length <= keep && chunk.length >= keep) {
        // The hot path, without copying the chunk: only a delimiter that starts in the carried tail
        // needs the two joined, and then only the first bytes of the chunk.
        const at = Buffer.concat([buf, chunk.subarray(0, keep)]).indexOf(delimiter);
        if (at >= 0 && at < buf.length) {
          await partData(buf.subarray(0, at));
          await endPart();
          buf = chunk.subarray(at + delimiter.length - buf.length);
          state = 'boundary';
        } else {
          await partData(buf);
          buf = chunk;
        }
      } else {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      }
      while (await step());
    }
    if (state !== 'done') throw malformed('the body ended before the closing boundary');
    return result;
  } catch (err) {
    if (file) await dispose(file.handle, file.upload.path);
    await discardUploads(result);
    if (err instanceof HttpError) {
      discardRest(req, drainCap);
      throw err;
    }
    if (req.destroyed || (err as { code?: string }).code === 'ECONNRESET') throw new HttpError(400, 'the upload was interrupted');
    throw err;
  }
}
