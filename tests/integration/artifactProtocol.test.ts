// The v4 artifact protocol a running task speaks (what the built-in runner's upload/download-artifact and
// actions/*-artifact@v4 use): the runtime token, signed URLs, blocks, finalization checks, and expiry
// through cleanup_actions.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionArtifacts } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor } from '../helpers/repos.js';
import { fetchTask, pushFiles, registerRunner, runsOf } from '../helpers/actions.js';
import { eventually } from '../helpers/hooks.js';

let app: TestApp;
let owner: Actor;
let token: string;
let repoName: string;
let taskToken: string;

const base = () => `${app.url}/twirp/github.actions.results.api.v1.ArtifactService`;
const twirp = (method: string, body: unknown, auth: string | null = `Bearer ${token}`) =>
  fetch(`${base()}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, body: JSON.stringify(body) });

test.before(async () => {
  app = await startApp({ ACTIONS_POLL_INTERVAL_MS: '50' }, { workers: true, actions: true });
  owner = await actor(app);
  const repo = await userRepo(app, owner, { auto_init: true });
  repoName = repo.name;
  await pushFiles(app, owner, owner.username, repo.name, { '.gitea/workflows/a.yml': 'on: push\njobs:\n  j:\n    runs-on: artifacts\n    steps: [{run: x}]\n' });
  await runsOf(app, repo.id, 1);
  const runner = await registerRunner(app, ['artifacts']);
  const task = await eventually(() => fetchTask(runner), 'the task');
  token = (task.context as { gitea_runtime_token: string }).gitea_runtime_token;
  taskToken = (task.context as { token: string }).token;
});
test.after(async () => {
  await app.close();
});

test('401 without the runtime token of a running task', async () => {
  for (const auth of [null, 'Bearer 0000000000000000000000000000000000000000', 'Basic eDp5']) {
    const res = await twirp('CreateArtifact', { name: 'x', version: 4 }, auth);
    assert.is(res.status, 401);
    assert.is(((await res.json()) as { code: string }).code, 'unauthenticated');
  }
});

test('the runtime token is a JWT as Gitea issues it (scp Actions.Results:<run>:<job>, what upload-artifact@v4 reads); the bare task token works too; a forged one is 401', async () => {
  const [head, payload, sig] = token.split('.');
  assert.ok(head && payload && sig, token);
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { scp: string; TaskID: number; RunID: number; JobID: number; exp: number };
  assert.is(claims.scp, `Actions.Results:${claims.RunID}:${claims.JobID}`);
  assert.ok(claims.exp * 1000 > Date.now());
  assert.is(JSON.parse(Buffer.from(head, 'base64url').toString('utf8')).alg, 'HS256');
  assert.is((await twirp('ListArtifacts', {}, `Bearer ${taskToken}`)).status, 200);
  assert.is((await twirp('ListArtifacts', {})).status, 200);
  const other = Buffer.from(JSON.stringify({ ...claims, RunID: claims.RunID + 1, scp: 'Actions.Results:0:0' })).toString('base64url');
  for (const forged of [`${head}.${payload}.${sig.slice(0, -2)}AA`, `${head}.${other}.${sig}`, `${head}.${payload}`, 'a.b.c']) {
    const res = await twirp('ListArtifacts', {}, `Bearer ${forged}`);
    assert.is(res.status, 401, forged);
  }
});

test('create, upload blocks, finalize (size and sha256 checked), list, download; a bad signature is 404; a second one of the name is 409', async () => {
  assert.is((await twirp('CreateArtifact', { name: 'a/b', version: 4 })).status, 400);
  const created = (await (await twirp('CreateArtifact', { name: 'logs', version: 4 })).json()) as { ok: boolean; signed_upload_url: string };
  assert.ok(created.ok);
  const url = created.signed_upload_url;
  assert.ok(url.startsWith(`${app.url}/twirp/`));
  const tampered = url.replace(/sig=[^&]+/, 'sig=AAAA');
  assert.is((await fetch(`${tampered}&comp=block&blockid=b1`, { method: 'PUT', body: 'x' })).status, 404);
  const parts = [Buffer.alloc(100_000, 1), Buffer.from('tail')];
  for (const [i, p] of parts.entries()) assert.is((await fetch(`${url}&comp=block&blockid=b${i}`, { method: 'PUT', body: p })).status, 201);
  const list = '<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>b0</Latest><Latest>b1</Latest></BlockList>';
  assert.is((await fetch(`${url}&comp=blocklist`, { method: 'PUT', body: list })).status, 201);
  const all = Buffer.concat(parts);
  assert.is((await twirp('FinalizeArtifact', { name: 'logs', size: String(all.length), hash: 'sha256:00' })).status, 400);
  assert.is((await twirp('FinalizeArtifact', { name: 'logs', size: '1' })).status, 400);
  const fin = (await (await twirp('FinalizeArtifact', { name: 'logs', size: String(all.length), hash: `sha256:${createHash('sha256').update(all).digest('hex')}` })).json()) as { artifact_id: string };
  const listed = (await (await twirp('ListArtifacts', { name_filter: 'logs' })).json()) as { artifacts: Array<{ name: string; database_id: string; size: string }> };
  assert.equal(listed.artifacts.map((a) => [a.name, a.database_id, a.size]), [['logs', fin.artifact_id, String(all.length)]]);
  assert.is((await twirp('CreateArtifact', { name: 'logs', version: 4 })).status, 409);
  const signed = (await (await twirp('GetSignedArtifactURL', { name: 'logs' })).json()) as { signed_url: string };
  const got = await fetch(signed.signed_url);
  assert.is(got.status, 200);
  assert.ok(Buffer.from(await got.arrayBuffer()).equals(all));
  assert.is((await fetch(signed.signed_url.replace(/sig=[^&]+/, 'sig=AAAA'))).status, 404);
  assert.is((await twirp('GetSignedArtifactURL', { name: 'none' })).status, 404);
});

test('appended blocks are committed at finalization; DeleteArtifact removes one', async () => {
  const { signed_upload_url: url } = (await (await twirp('CreateArtifact', { name: 'appended', version: 4 })).json()) as { signed_upload_url: string };
  await fetch(`${url}&comp=appendBlock`, { method: 'PUT', body: 'hello ' });
  await fetch(`${url}&comp=appendBlock`, { method: 'PUT', body: 'world' });
  const fin = (await (await twirp('FinalizeArtifact', { name: 'appended', size: '11' })).json()) as { artifact_id: string };
  const [row] = await app.services.deps.db.select().from(actionArtifacts).where(eq(actionArtifacts.id, Number(fin.artifact_id)));
  assert.is(row!.size, 11);
  const del = (await (await twirp('DeleteArtifact', { name: 'appended' })).json()) as { ok: boolean; artifact_id: string };
  assert.equal([del.ok, del.artifact_id], [true, fin.artifact_id]);
  assert.not.ok(existsSync(join(app.services.deps.config.dataDir, row!.storagePath)));
});

test('cleanup_actions expires artifacts past their retention: the file goes, the API shows it expired and its zip is 404', async () => {
  const { signed_upload_url: url } = (await (await twirp('CreateArtifact', { name: 'short', version: 4 })).json()) as { signed_upload_url: string };
  await fetch(`${url}&comp=appendBlock`, { method: 'PUT', body: 'bye' });
  const { artifact_id: id } = (await (await twirp('FinalizeArtifact', { name: 'short' })).json()) as { artifact_id: string };
  const [row] = await app.services.deps.db.update(actionArtifacts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(actionArtifacts.id, Number(id))).returning();
  const outcome = await app.services.cron.run('cleanup_actions');
  assert.is(outcome.ran && outcome.status, 'ok');
  assert.not.ok(existsSync(join(app.services.deps.config.dataDir, row!.storagePath)));
  const path = { owner: owner.username, repo: repoName, artifact_id: Number(id) };
  const got = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}', { params: { path } });
  assert.is(got.data!.expired, true);
  const zip = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip', { params: { path }, parseAs: 'arrayBuffer' });
  assert.is(zip.response.status, 404);
});

test.run();
