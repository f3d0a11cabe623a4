// actions/upload-artifact and actions/download-artifact, built in: they speak the v4 artifact protocol
// (twirp JSON at `<ACTIONS_RESULTS_URL>twirp/github.actions.results.api.v1.ArtifactService/…`, the
// task's runtime token as Bearer) as the real actions do: the files are zipped, created, uploaded in
// blocks to the signed URL the server answers (Azure's Put Block / Put Block List), and finalized with
// their size and sha256; a download lists, asks for a signed URL and unzips what it gets.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Builtin, BuiltinCall } from './executor.js';
import { extractZip, writeZip, type ZipInput } from './zip.js';

const service = 'twirp/github.actions.results.api.v1.ArtifactService';
const blockSize = 8 * 1024 * 1024;

function endpoint(call: BuiltinCall): { base: string; token: string } {
  const base = call.env.ACTIONS_RESULTS_URL || `${String(call.github.server_url ?? '')}/`;
  const token = call.env.ACTIONS_RUNTIME_TOKEN || String(call.github.gitea_runtime_token ?? call.github.token ?? '');
  return { base: base.endsWith('/') ? base : `${base}/`, token };
}

async function twirp<T>(call: BuiltinCall, method: string, body: Record<string, unknown>): Promise<T> {
  const { base, token } = endpoint(call);
  const res = await fetch(`${base}${service}/${method}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body), signal: call.signal,
  });
  const text = await res.text();
  if (!res.ok) {
    let msg = text;
    try {
      msg = (JSON.parse(text) as { msg?: string }).msg ?? text;
    } catch {
      // plain text
    }
    throw new Error(`${method}: ${res.status} ${msg}`);
  }
  return JSON.parse(text) as T;
}

const ids = (call: BuiltinCall) => ({ workflow_run_backend_id: String(call.github.run_id ?? ''), workflow_job_run_backend_id: String(call.github.job ?? '') });

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
}

/** The files `path:` names (lines; a folder means every file under it), with names relative to their common folder. */
export function collectFiles(workspace: string, spec: string): ZipInput[] {
  const roots = spec.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('!')).map((l) => (isAbsolute(l) ? l : resolve(workspace, l)));
  const files: string[] = [];
  const bases: string[] = [];
  for (const r of roots) {
    if (!existsSync(r)) continue;
    if (statSync(r).isDirectory()) {
      walk(r, files);
      bases.push(r);
    } else {
      files.push(r);
      bases.push(dirname(r));
    }
  }
  if (files.length === 0) return [];
  let common = bases[0]!;
  for (const b of bases) while (!(b === common || b.startsWith(common.endsWith(sep) ? common : common + sep))) common = dirname(common);
  return [...new Set(files)].map((p) => ({ name: relative(common, p).split(sep).join('/'), path: p }));
}

export const uploadArtifact: Builtin = async (call): Promise<Record<string, string>> => {
  const name = call.with.name || 'artifact';
  const files = collectFiles(call.workspace, call.with.path ?? '');
  if (files.length === 0) {
    const mode = call.with['if-no-files-found'] || 'warn';
    const msg = `No files were found with the provided path: ${call.with.path ?? ''}. No artifacts will be uploaded.`;
    if (mode === 'error') throw new Error(msg);
    if (mode === 'warn') call.log(`::warning::${msg}`);
    return {};
  }
  const zipPath = join(call.temp, `artifact-${randomBytes(6).toString('hex')}.zip`);
  try {
    const size = writeZip(files, zipPath);
    call.log(`With the provided path, there will be ${files.length} file(s) uploaded`);
    const retention = Number(call.with['retention-days']);
    const created = await twirp<{ ok: boolean; signed_upload_url: string }>(call, 'CreateArtifact', {
      ...ids(call), name, version: 4,
      ...(Number.isFinite(retention) && retention > 0 ? { expires_at: new Date(Date.now() + retention * 86_400_000).toISOString() } : {}),
    });
    const hash = createHash('sha256');
    const blocks: string[] = [];
    const fd = openSync(zipPath, 'r');
    try {
      const buf = Buffer.alloc(Math.min(blockSize, Math.max(1, size)));
      let pos = 0;
      for (let n = 0; pos < size || n === 0; n++) {
        const len = readSync(fd, buf, 0, buf.length, pos);
        const chunk = Buffer.from(buf.subarray(0, len));
        hash.update(chunk);
        const id = Buffer.from(`block-${String(n).padStart(6, '0')}`).toString('base64');
        blocks.push(id);
        const res = await fetch(`${created.signed_upload_url}&comp=block&blockid=${encodeURIComponent(id)}`, { method: 'PUT', body: chunk, signal: call.signal, headers: { 'content-type': 'application/octet-stream' } });
        if (!res.ok) throw new Error(`uploading block ${n}: ${res.status} ${await res.text()}`);
        pos += len;
        if (len === 0) break;
      }
    } finally {
      closeSync(fd);
    }
    const list = `<?xml version="1.0" encoding="utf-8"?><BlockList>${blocks.map((b) => `<Latest>${b}</Latest>`).join('')}</BlockList>`;
    const committed = await fetch(`${created.signed_upload_url}&comp=blocklist`, { method: 'PUT', body: list, signal: call.signal, headers: { 'content-type': 'application/xml' } });
    if (!committed.ok) throw new Error(`committing the upload: ${committed.status} ${await committed.text()}`);
    const done = await twirp<{ ok: boolean; artifact_id: string }>(call, 'FinalizeArtifact', { ...ids(call), name, size: String(size), hash: `sha256:${hash.digest('hex')}` });
    call.log(`Artifact ${name} has been successfully uploaded! Final size is ${size} bytes. Artifact ID is ${done.artifact_id}`);
    const repo = String(call.github.repository ?? '');
    return { 'artifact-id': String(done.artifact_id), 'artifact-url': `${String(call.github.server_url ?? '')}/${repo}/actions/runs/${String(call.github.run_number ?? '')}/artifacts/${encodeURIComponent(name)}` };
  } finally {
    rmSync(zipPath, { force: true });
  }
};

interface Listed {
  name: string;
  database_id: string;
  size: string;
}

export const downloadArtifact: Builtin = async (call) => {
  const wanted = call.with.name || '';
  const dest = call.with.path ? (isAbsolute(call.with.path) ? call.with.path : resolve(call.workspace, call.with.path)) : call.workspace;
  const { artifacts } = await twirp<{ artifacts?: Listed[] }>(call, 'ListArtifacts', { ...ids(call), ...(wanted ? { name_filter: wanted } : {}) });
  const chosen = (artifacts ?? []).filter((a) => !wanted || a.name === wanted);
  if (wanted && chosen.length === 0) throw new Error(`Unable to download artifact(s): Artifact not found for name: ${wanted}`);
  for (const a of chosen) {
    const { signed_url: url } = await twirp<{ signed_url: string }>(call, 'GetSignedArtifactURL', { ...ids(call), name: a.name });
    const res = await fetch(url, { signal: call.signal });
    if (!res.ok) throw new Error(`downloading ${a.name}: ${res.status}`);
    const target = wanted ? dest : join(dest, a.name);
    mkdirSync(target, { recursive: true });
    const zip = Buffer.from(await res.arrayBuffer());
    const names = extractZip(zip, target);
    call.log(`Artifact ${a.name} was downloaded to ${target} (${names.length} file(s))`);
  }
  if (chosen.length === 0) call.log('No artifacts found');
  return { 'download-path': dest };
};
