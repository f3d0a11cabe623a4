// A client of the v1–v3 artifact protocol that speaks it as @actions/artifact v1 (upload-artifact@v3,
// download-artifact@v3) does: open a container, PUT every file in chunks with Content-Range (gzip'ed when
// asked, with x-tfs-filelength the uncompressed size), each chunk's MD5 in x-actions-results-md5, PATCH to
// confirm; download lists the run's artifacts, asks for an artifact's items and GETs each of them.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';

export interface PipelineClient {
  base: string;
  runId: number;
  token: string;
}

export interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** A raw request (node:http, so no transparent gunzip): what the toolkit's HttpClient sees. */
export function send(url: string, method: string, token: string | null, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const json = <T>(a: Answer): T => JSON.parse(a.body.toString('utf8')) as T;

export const artifactsUrl = (c: PipelineClient) => `${c.base}/api/actions_pipeline/_apis/pipelines/workflows/${c.runId}/artifacts`;

/** POST: the container's upload URL (asserting nothing: the answer). */
export function createContainer(c: PipelineClient, name: string, retentionDays?: number): Promise<Answer> {
  const body = JSON.stringify({ Type: 'actions_storage', Name: name, ...(retentionDays ? { RetentionDays: retentionDays } : {}) });
  return send(`${artifactsUrl(c)}?api-version=6.0-preview`, 'POST', c.token, { 'content-type': 'application/json' }, body);
}

/** PUTs one file in chunks of `chunkSize` bytes (of the gzip'ed bytes when `gzip`); answers each chunk's status. */
export async function uploadFile(c: PipelineClient, containerUrl: string, itemPath: string, content: Buffer, opts: { chunkSize?: number; gzip?: boolean } = {}): Promise<number[]> {
  const data = opts.gzip ? gzipSync(content) : content;
  const size = opts.chunkSize ?? 4 * 1024 * 1024;
  const statuses: number[] = [];
  if (data.length === 0) {
    // An empty file: one empty chunk whose range is `bytes 0--1/0`, as the toolkit sends it.
    const headers = { 'content-type': 'application/octet-stream', 'content-length': '0', 'content-range': 'bytes 0--1/0', 'x-actions-results-md5': createHash('md5').digest('base64') };
    return [(await send(`${containerUrl}?itemPath=${encodeURIComponent(itemPath)}`, 'PUT', c.token, headers, Buffer.alloc(0))).status];
  }
  for (let start = 0; start < data.length; start += size) {
    const chunk = data.subarray(start, Math.min(start + size, data.length));
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream', 'content-length': String(chunk.length),
      'content-range': `bytes ${start}-${start + chunk.length - 1}/${data.length}`,
      'x-actions-results-md5': createHash('md5').update(chunk).digest('base64'),
    };
    if (opts.gzip) Object.assign(headers, { 'content-encoding': 'gzip', 'x-tfs-filelength': String(content.length) });
    const res = await send(`${containerUrl}?itemPath=${encodeURIComponent(itemPath)}`, 'PUT', c.token, headers, chunk);
    statuses.push(res.status);
  }
  return statuses;
}

/** PATCH: confirms the artifact's upload. */
export function confirm(c: PipelineClient, name: string, size: number): Promise<Answer> {
  return send(`${artifactsUrl(c)}?api-version=6.0-preview&artifactName=${encodeURIComponent(name)}`, 'PATCH', c.token, { 'content-type': 'application/json' }, JSON.stringify({ Size: size }));
}

/** The whole upload of upload-artifact@v3: files by their path in the artifact. */
export async function uploadArtifact(c: PipelineClient, name: string, files: Record<string, Buffer>, opts: { chunkSize?: number; gzip?: boolean; retentionDays?: number } = {}): Promise<void> {
  const created = await createContainer(c, name, opts.retentionDays);
  if (created.status !== 200) throw new Error(`create: ${created.status} ${created.body.toString()}`);
  const { fileContainerResourceUrl } = json<{ fileContainerResourceUrl: string }>(created);
  let total = 0;
  for (const [path, content] of Object.entries(files)) {
    const statuses = await uploadFile(c, fileContainerResourceUrl, `${name}/${path}`, content, opts);
    if (statuses.some((s) => s !== 200)) throw new Error(`upload of ${path}: ${statuses.join(',')}`);
    total += content.length;
  }
  const done = await confirm(c, name, total);
  if (done.status !== 200) throw new Error(`confirm: ${done.status} ${done.body.toString()}`);
}

export interface ListedArtifact { name: string; fileContainerResourceUrl: string }

/** The whole download of download-artifact@v3: every file of an artifact, by its path in it (gunzip'ed as the toolkit does). */
export async function downloadArtifact(c: PipelineClient, name: string): Promise<Record<string, Buffer>> {
  const listed = await send(`${artifactsUrl(c)}?api-version=6.0-preview`, 'GET', c.token);
  if (listed.status !== 200) throw new Error(`list: ${listed.status}`);
  const artifact = json<{ value: ListedArtifact[] }>(listed).value.find((a) => a.name === name);
  if (!artifact) throw new Error(`artifact ${name} is not listed`);
  const items = await send(`${artifact.fileContainerResourceUrl}?itemPath=${encodeURIComponent(name)}`, 'GET', c.token);
  if (items.status !== 200) throw new Error(`items: ${items.status}`);
  const out: Record<string, Buffer> = {};
  for (const item of json<{ value: Array<{ path: string; itemType: string; contentLocation: string }> }>(items).value) {
    const got = await send(item.contentLocation, 'GET', c.token, { accept: 'application/octet-stream;api-version=6.0-preview', 'accept-encoding': 'gzip' });
    if (got.status !== 200) throw new Error(`download of ${item.path}: ${got.status}`);
    out[item.path.slice(name.length + 1)] = got.headers['content-encoding'] === 'gzip' ? gunzipSync(got.body) : got.body;
  }
  return out;
}
