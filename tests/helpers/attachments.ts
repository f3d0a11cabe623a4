// Factories for the attachment tests: a repository with one user per role, issues and comments made
// through the API, uploads through the typed client (multipart), raw uploads over node:http for the
// streaming cases, and looks at what is left on disk and in the table.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { attachments } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { actor, addCollaborator, pathOf, siteAdmin, userRepo, type Actor, type Repository } from './repos.js';

export type Attachment = components['schemas']['Attachment'];
export type Issue = components['schemas']['Issue'];
export type Comment = components['schemas']['Comment'];

/**
 * A repository of `owner`'s with read, write and admin collaborators, an outsider (signed in, no
 * grant) and the site admin.
 */
export interface AttachmentWorld {
  repo: Repository;
  path: { owner: string; repo: string };
  owner: Actor;
  reader: Actor;
  writer: Actor;
  repoAdmin: Actor;
  outsider: Actor;
  admin: Actor;
}

export async function attachmentWorld(app: TestApp, opts: { private?: boolean; reuse?: AttachmentWorld } = {}): Promise<AttachmentWorld> {
  const r = opts.reuse;
  const [owner, reader, writer, repoAdmin, outsider] = r
    ? [r.owner, r.reader, r.writer, r.repoAdmin, r.outsider]
    : await Promise.all([actor(app), actor(app), actor(app), actor(app), actor(app)]);
  const repo = await userRepo(app, owner, { private: !!opts.private });
  await addCollaborator(app, repo, reader, 'read');
  await addCollaborator(app, repo, writer, 'write');
  await addCollaborator(app, repo, repoAdmin, 'admin');
  return { repo, path: pathOf(repo), owner, reader, writer, repoAdmin, outsider, admin: await siteAdmin(app) };
}

export async function newIssue(app: TestApp, w: AttachmentWorld, as: Actor, title = 'an issue'): Promise<Issue> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: w.path }, body: { title } });
  assert.is(r.response.status, 201, `POST issue: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function newComment(app: TestApp, w: AttachmentWorld, index: number, as: Actor, body = 'a comment'): Promise<Comment> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...w.path, index } }, body: { body } });
  assert.is(r.response.status, 201, `POST comment: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export interface FilePart {
  filename?: string;
  content?: string | Uint8Array;
  /** The multipart field name; `attachment` unless told. */
  field?: string;
}

function formOf(file: FilePart | null): FormData {
  const form = new FormData();
  if (file === null) {
    form.append('other', 'no file here');
    return form;
  }
  const content = file.content ?? 'hello\n';
  form.append(file.field ?? 'attachment', new Blob([typeof content === 'string' ? content : Uint8Array.from(content)]), file.filename ?? 'hello.txt');
  return form;
}

/** POST .../issues/{index}/assets through the typed client; `null` sends a form without the attachment part. */
export function uploadToIssue(app: TestApp, w: { path: { owner: string; repo: string } }, index: number, file: FilePart | null, as?: Actor, name?: string) {
  return app.client(as?.auth).POST('/repos/{owner}/{repo}/issues/{index}/assets', {
    params: { path: { ...w.path, index }, query: name === undefined ? {} : { name } },
    body: formOf(file) as unknown as { attachment: string },
  });
}

/** POST .../issues/comments/{id}/assets through the typed client. */
export function uploadToComment(app: TestApp, w: { path: { owner: string; repo: string } }, id: number, file: FilePart | null, as?: Actor, name?: string) {
  return app.client(as?.auth).POST('/repos/{owner}/{repo}/issues/comments/{id}/assets', {
    params: { path: { ...w.path, id }, query: name === undefined ? {} : { name } },
    body: formOf(file) as unknown as { attachment: string },
  });
}

/** Every file under `dir` (recursively); none when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

export const attachmentDir = (app: TestApp) => join(app.config.dataDir, 'attachments');
export const tmpDir = (app: TestApp) => join(app.config.dataDir, 'tmp');

/** `$DATA_DIR/attachments/<uuid[0]>/<uuid[1]>/<uuid>` */
export const storedPath = (app: TestApp, uuid: string) => join(attachmentDir(app), uuid[0]!, uuid[1]!, uuid);

export async function attachmentRowCount(app: TestApp): Promise<number> {
  const [row] = await app.services.deps.db.select({ n: count() }).from(attachments);
  return row?.n ?? 0;
}

/** What must hold after a refused or broken upload: no stored file, no temporary file, no new row. */
export async function assertNothingLeft(app: TestApp, rowsBefore: number, filesBefore: string[], what: string): Promise<void> {
  assert.equal(filesUnder(attachmentDir(app)).sort(), [...filesBefore].sort(), `${what}: no new file in attachments/`);
  assert.equal(filesUnder(tmpDir(app)), [], `${what}: nothing in tmp/`);
  assert.is(await attachmentRowCount(app), rowsBefore, `${what}: no new row`);
}

/** Polls `cond` (a few ms apart) until it holds; fails after `ms`. */
export async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) assert.unreachable(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A multipart upload over node:http, for the cases fetch cannot make: a chunked body, a body written
 * piece by piece, a connection dropped half way. `head` and `tail` frame the file bytes.
 */
export function rawUpload(app: TestApp, apiPath: string, opts: { auth: string; filename?: string; length?: number; chunked?: boolean }) {
  const boundary = `----anvil${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="${opts.filename ?? 'big.txt'}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers: Record<string, string> = { Authorization: opts.auth, 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  if (!opts.chunked && opts.length !== undefined) headers['Content-Length'] = String(head.length + opts.length + tail.length);
  const url = new URL(`${app.url}/api/v1${apiPath}`);
  const req: ClientRequest = request(url, { method: 'POST', headers });
  const response = new Promise<{ status: number; text: string; res: IncomingMessage }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text, res }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return { req, head, tail, response };
}

/** Writes `bytes` bytes of a repeating pattern in 64 KiB chunks, waiting whenever the socket is full. */
export async function writeBytes(req: ClientRequest, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 'abcdefghijklmnopqrstuvwxyz\n');
  let left = bytes;
  while (left > 0) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    if (!req.write(piece)) {
      await new Promise<void>((resolve, reject) => {
        const onDrain = () => {
          req.off('error', onError);
          resolve();
        };
        const onError = (err: Error) => {
          req.off('drain', onDrain);
          reject(err);
        };
        req.once('drain', onDrain);
        req.once('error', onError);
      });
    }
  }
}
