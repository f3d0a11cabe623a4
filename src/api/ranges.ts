// Byte ranges and validators of file downloads (`…/raw/{filepath}`, `…/media/{filepath}`, LFS objects), as
// Gitea serves them (modules/httplib's ServeUserContentByReader, httpcache's ETag check):
//
// - `ETag` is the blob's id (or an LFS object's oid), quoted; `If-None-Match` naming it is 304.
// - One range `bytes=a-b` or `bytes=a-` is 206 with `Content-Range: bytes a-b/size` (an end past the last
//   byte is the last byte). A start that is not a number or not below the size is 416 (with
//   `Content-Range: bytes */size`); an end before the start or not a number is 400, as Gitea's.
// - Stricter than Gitea where Gitea is loose: a suffix range `bytes=-n` (the last n bytes) is served as
//   http.ServeContent serves it (Gitea answers 416), and `If-Range` is honoured (Gitea ignores it): a
//   range is served only while the validator still names the same bytes, else the whole file is 200.
// - Anything that is not a `bytes=` range, and any range of an empty file, is the whole file (200).
import type { Readable } from 'node:stream';
import { HttpError } from './errors.js';

export interface ByteRange {
  start: number;
  /** Inclusive, as HTTP's. */
  end: number;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Whether `If-None-Match` (a list, or `*`) names `etag` (weak comparison, as RFC 9110's). */
export function notModified(headers: Headers, etag: string): boolean {
  const inm = header(headers, 'if-none-match');
  if (!inm) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return inm.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/** The range a request asks for of a file of `size` bytes with validator `etag`; undefined for the whole file. */
export function requestedRange(headers: Headers, size: number, etag: string): ByteRange | undefined {
  const range = header(headers, 'range');
  if (!range || !range.startsWith('bytes=') || size <= 0) return undefined;
  const ifRange = header(headers, 'if-range');
  // If-Range with an ETag: strong comparison; with a date (or a weak tag) the range is never served.
  if (ifRange !== undefined && ifRange.trim() !== etag) return undefined;
  const unsatisfiable = (message: string) => new HttpError(416, message, { 'Content-Range': `bytes */${size}` });
  const spec = range.slice('bytes='.length).trim();
  const suffix = /^-(\d{1,16})$/.exec(spec);
  if (suffix) {
    const n = Number(suffix[1]);
    if (n === 0) throw unsatisfiable('invalid suffix range');
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const dash = spec.indexOf('-');
  const first = dash < 0 ? spec : spec.slice(0, dash);
  const last = dash < 0 ? undefined : spec.slice(dash + 1);
  if (!/^\d{1,16}$/.test(first) || Number(first) >= size) throw unsatisfiable('invalid start range');
  const start = Number(first);
  if (last === undefined || (last !== '' && !/^\d{1,16}$/.test(last))) throw new HttpError(400, 'invalid end range');
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) throw new HttpError(400, 'invalid end range');
  return { start, end };
}

/** A file to serve: its size, validator, and how to read it (whole or a range). */
export interface Servable {
  size: number;
  etag: string;
  open: (range?: ByteRange) => Promise<{ stream?: Readable; data?: Buffer }>;
}
/** A file that may be served by a redirect to a presigned URL instead (SERVE_DIRECT). */
export interface RedirectableServable extends Servable {
  open: (range?: ByteRange) => Promise<{ stream?: Readable; data?: Buffer; redirect?: string }>;
}

type BodyReply = { status: 200 | 206; body: Buffer; headers: Record<string, string> };
type NotModifiedReply = { status: 304; body?: undefined; headers: Record<string, string> };
type RedirectReply = { status: 303; body?: undefined; headers: Record<string, string> };

/**
 * The answer for `file` to a request with `headers`: 304, 206 with the range, 200 with all of it, or a 303
 * to a presigned URL. `extra` headers (type, disposition) go on every answer with a body. A stream body is
 * typed as a Buffer for the handler's reply type; Koa writes either.
 */
export async function serveFile(headers: Headers, file: Servable, extra: Record<string, string>): Promise<BodyReply | NotModifiedReply>;
export async function serveFile(headers: Headers, file: RedirectableServable, extra: Record<string, string>): Promise<BodyReply | NotModifiedReply | RedirectReply>;
export async function serveFile(headers: Headers, file: RedirectableServable, extra: Record<string, string>): Promise<BodyReply | NotModifiedReply | RedirectReply> {
  const validators = { ETag: file.etag, 'Accept-Ranges': 'bytes' };
  if (notModified(headers, file.etag)) return { status: 304, headers: validators };
  const range = requestedRange(headers, file.size, file.etag);
  const opened = await file.open(range);
  if (opened.redirect) return { status: 303, headers: { Location: opened.redirect } };
  const body = (opened.stream ?? opened.data) as Buffer;
  if (!range) return { status: 200, body, headers: { ...extra, ...validators, 'Content-Length': String(file.size) } };
  return {
    status: 206,
    body,
    headers: { ...extra, ...validators, 'Content-Range': `bytes ${range.start}-${range.end}/${file.size}`, 'Content-Length': String(range.end - range.start + 1) },
  };
}
