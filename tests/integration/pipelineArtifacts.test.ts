// The v1–v3 artifact protocol (/api/actions_pipeline/…) as actions/upload-artifact@v3 and
// download-artifact@v3 speak it (tests/helpers/pipelineArtifacts.ts): chunked and gzip'ed uploads, the
// confirmation, listing and downloading; a wrong or ended task's token, another run's artifact; the
// artifact through the REST API (listed, zipped) and its expiry through cleanup_actions; two jobs of one
// run uploading to one artifact name (Gitea's matrix case).
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionArtifactFiles, actionArtifacts } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor } from '../helpers/repos.js';
import { fetchTask, finishTask, pushFiles, registerRunner, Result, runsOf, type TestRunner } from '../helpers/actions.js';
import { eventually } from '../helpers/hooks.js';
import { blobKeys, hasBlob } from '../helpers/blobs.js';
import { artifactsUrl, confirm, createContainer, downloadArtifact, json, send, uploadArtifact, uploadFile, type PipelineClient } from '../helpers/pipelineArtifacts.js';
import { extractZip } from '../../src/runner/zip.js';

let app: TestApp;
let owner: Actor;
let repoName: string;
let runner: TestRunner;
/** Two running tasks, of two runs. */
let a: PipelineClient;
let b: PipelineClient;
/** Two running tasks (jobs) of a third run. */
let m1: PipelineClient;
let m2: PipelineClient;
let taskB: Awaited<ReturnType<typeof fetchTask>>;

const body = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed * 7 + (i >> 8)) & 0xff));

test.before(async () => {
  app = await startApp({ ACTIONS_POLL_INTERVAL_MS: '50' }, { workers: true, actions: true });
  owner = await actor(app);
  const repo = await userRepo(app, owner, { auto_init: true });
  repoName = repo.name;
  const job = 'on: push\njobs:\n  j:\n    runs-on: pipeline\n    steps: [{run: x}]\n';
  const twoJobs = 'on: push\njobs:\n  x:\n    runs-on: pipeline\n    steps: [{run: x}]\n  y:\n    runs-on: pipeline\n    steps: [{run: y}]\n';
  await pushFiles(app, owner, owner.username, repo.name, { '.gitea/workflows/a.yml': job, '.gitea/workflows/b.yml': job, '.gitea/workflows/c.yml': twoJobs });
  await runsOf(app, repo.id, 3);
  runner = await registerRunner(app, ['pipeline']);
  const tasks: Array<NonNullable<Awaited<ReturnType<typeof fetchTask>>>> = [];
  for (let i = 1; i <= 4; i++) tasks.push(await eventually(() => fetchTask(runner), `task ${i}`));
  const clients = tasks.map((t) => {
    const ctx = t.context as { gitea_runtime_token: string; run_id: string };
    return { base: app.url, runId: Number(ctx.run_id), token: ctx.gitea_runtime_token };
  });
  const shared = clients.filter((c) => clients.filter((d) => d.runId === c.runId).length === 2);
  assert.is(shared.length, 2);
  [m1, m2] = shared as [PipelineClient, PipelineClient];
  const single = clients.map((c, i) => ({ c, t: tasks[i] })).filter(({ c }) => !shared.includes(c));
  assert.is.not(single[0]!.c.runId, single[1]!.c.runId);
  [a, b] = [single[0]!.c, single[1]!.c];
  taskB = single[1]!.t;
});
test.after(async () => {
  await app.close();
});

test('a multi-chunk plain file, a gzip\'ed file and an empty one go up, are confirmed and come back whole; the API lists the artifact and zips it', async () => {
  const big = body(300_000, 1);
  const small = Buffer.from('hello artifact\n'.repeat(1000));
  const created = await createContainer(a, 'dist', 3);
  assert.is(created.status, 200);
  const { fileContainerResourceUrl: url } = json<{ fileContainerResourceUrl: string }>(created);
  assert.ok(url.startsWith(`${artifactsUrl(a)}/`), url);
  assert.equal(await uploadFile(a, url, 'dist/bin/app.bin', big, { chunkSize: 64 * 1024 }), [200, 200, 200, 200, 200]);
  assert.equal(await uploadFile(a, url, 'dist/notes.txt', small, { gzip: true, chunkSize: 100 }).then((s) => [...new Set(s)]), [200]);
  assert.equal(await uploadFile(a, url, 'dist/empty', Buffer.alloc(0)), [200]);
  // Not listed before its confirmation.
  assert.equal(json<{ count: number }>(await send(artifactsUrl(a), 'GET', a.token)).count, 0);
  assert.is((await confirm(a, 'dist', big.length + small.length)).status, 200);

  const files = await downloadArtifact(a, 'dist');
  assert.equal(Object.keys(files).sort(), ['bin/app.bin', 'empty', 'notes.txt']);
  assert.is(files.empty!.length, 0);
  assert.ok(files['bin/app.bin']!.equals(big));
  assert.ok(files['notes.txt']!.equals(small));
  // The gzip'ed file is stored and served gzip'ed.
  const [row] = await app.services.deps.db.select().from(actionArtifacts).where(eq(actionArtifacts.name, 'dist'));
  const stored = await app.services.deps.db.select().from(actionArtifactFiles).where(eq(actionArtifactFiles.artifactId, row!.id));
  const gz = stored.find((f) => f.path === 'notes.txt')!;
  assert.is(gz.contentEncoding, 'gzip');
  assert.ok(gz.storedSize < small.length);
  assert.is(row!.size, big.length + small.length);
  assert.ok(row!.expiresAt!.getTime() < Date.now() + 3.1 * 86_400_000 && row!.expiresAt!.getTime() > Date.now() + 2.9 * 86_400_000, 'retention days');

  const path = { owner: owner.username, repo: repoName, artifact_id: row!.id };
  const api = app.client(owner.basic);
  const listed = await api.GET('/repos/{owner}/{repo}/actions/runs/{run}/artifacts', { params: { path: { owner: owner.username, repo: repoName, run: a.runId } } });
  assert.equal(listed.data!.artifacts!.map((x) => [x.name, x.size_in_bytes]), [['dist', big.length + small.length]]);
  const zip = await api.GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip', { params: { path }, parseAs: 'arrayBuffer' });
  assert.is(zip.response.status, 200);
  const dir = join(app.services.deps.config.dataDir, 'tmp', `unzip-${row!.id}`);
  extractZip(Buffer.from(zip.data as ArrayBuffer), dir);
  const { readFileSync } = await import('node:fs');
  assert.ok(readFileSync(join(dir, 'bin/app.bin')).equals(big));
  assert.ok(readFileSync(join(dir, 'notes.txt')).equals(small));
  assert.is(readFileSync(join(dir, 'empty')).length, 0);
});

test('bad requests: a chunk whose MD5 or length is wrong, a wrong hash, a bad range, a missing file: 400; an incomplete file is not confirmed', async () => {
  const { fileContainerResourceUrl: url } = json<{ fileContainerResourceUrl: string }>(await createContainer(a, 'partial'));
  const chunk = Buffer.from('0123456789');
  const put = (headers: Record<string, string>, itemPath = 'partial/f.txt', to = url) =>
    send(`${to}?itemPath=${encodeURIComponent(itemPath)}`, 'PUT', a.token, { 'content-range': 'bytes 0-9/20', ...headers }, chunk).then((r) => r.status);
  assert.is(await put({ 'x-actions-results-md5': 'AAAAAAAAAAAAAAAAAAAAAA==' }), 400);
  assert.is(await put({ 'content-range': 'bytes 0-19/20' }), 400);
  assert.is(await put({ 'content-range': 'bytes 5-1/20' }), 400);
  assert.is(await put({ 'content-range': 'nonsense' }), 400);
  assert.is(await put({}, 'other/f.txt'), 400);
  assert.is(await put({}, 'partial/../x'), 400);
  assert.is(await put({}, 'partial'), 400);
  assert.is(await put({}), 200);
  // Half of the file: the confirmation says so and the artifact stays unlisted.
  const half = await confirm(a, 'partial', 20);
  assert.is(half.status, 400);
  assert.match(half.body.toString(), /not uploaded whole/);
  assert.not.ok(json<{ value: Array<{ name: string }> }>(await send(artifactsUrl(a), 'GET', a.token)).value.some((x) => x.name === 'partial'));
  assert.is((await confirm(a, 'never-opened', 1)).status, 404);
  assert.is((await send(`${artifactsUrl(a)}?artifactName=`, 'PATCH', a.token)).status, 400);
  assert.is((await createContainer(a, 'a/b')).status, 400);
});

test('tokens: none, a wrong one or another scheme is 401; another run\'s id in the path is 400; another run\'s file is 400; a task that ended is 401', async () => {
  for (const token of [null, '0000000000000000000000000000000000000000']) {
    assert.is((await send(artifactsUrl(a), 'GET', token)).status, 401);
  }
  assert.is((await send(artifactsUrl(a), 'GET', null, { authorization: 'Basic eDp5' })).status, 401);
  // Task b's token on run a's path.
  assert.is((await send(artifactsUrl(a), 'GET', b.token)).status, 400);
  assert.is((await createContainer({ ...a, token: b.token }, 'x')).status, 400);
  // Run a's file, asked for by task b on its own run's path.
  const items = await send(`${artifactsUrl(a)}/${(await import('node:crypto')).createHash('md5').update('dist').digest('hex')}/download_url?itemPath=dist`, 'GET', a.token);
  const location = json<{ value: Array<{ contentLocation: string }> }>(items).value[0]!.contentLocation;
  const fileId = /\/(\d+)\/download$/.exec(location)![1];
  assert.is((await send(`${artifactsUrl(b)}/${fileId}/download`, 'GET', b.token)).status, 400);
  assert.is((await send(`${artifactsUrl(b)}/999999/download`, 'GET', b.token)).status, 404);
  // Task b's own artifact, then the task ends: its token no longer works.
  await uploadArtifact(b, 'own', { 'nothing.txt': Buffer.alloc(0) });
  assert.equal(Object.keys(await downloadArtifact(b, 'own')), ['nothing.txt']);
  assert.equal(json<{ value: Array<{ name: string }> }>(await send(artifactsUrl(b), 'GET', b.token)).value.map((x) => x.name), ['own']);
  await finishTask(runner, taskB!, Result.SUCCESS);
  assert.is((await send(artifactsUrl(b), 'GET', b.token)).status, 401);
});

test('two jobs of a run upload to one name: one artifact lists both jobs\' files (a path sent again replaces that file), unconfirmed files unseen; the API lists and zips it once', async () => {
  const db = app.services.deps.db;
  const one = Buffer.from('from job one\n');
  const two = Buffer.from('from job two\n'.repeat(200));
  const first = Buffer.from('shared, first version\n');
  const second = Buffer.from('shared, second version, longer\n');
  await uploadArtifact(m1, 'matrix', { 'one.txt': one, 'shared.txt': first });
  const [before] = await db.select().from(actionArtifactFiles).innerJoin(actionArtifacts, eq(actionArtifacts.id, actionArtifactFiles.artifactId))
    .where(eq(actionArtifacts.name, 'matrix')).then((r) => r.filter((x) => x.action_artifact_files.path === 'shared.txt'));
  const oldShared = before!.action_artifact_files.storagePath;
  assert.ok(await hasBlob(app, 'actions_artifacts', oldShared));

  // Job two's upload, not yet confirmed: the artifact still has job one's files only.
  const { fileContainerResourceUrl: url } = json<{ fileContainerResourceUrl: string }>(await createContainer(m2, 'matrix'));
  assert.equal(await uploadFile(m2, url, 'matrix/two.txt', two, { gzip: true, chunkSize: 100 }).then((s) => [...new Set(s)]), [200]);
  assert.equal(await uploadFile(m2, url, 'matrix/shared.txt', second), [200]);
  let files = await downloadArtifact(m1, 'matrix');
  assert.equal(Object.keys(files).sort(), ['one.txt', 'shared.txt']);
  assert.ok(files['shared.txt']!.equals(first));
  assert.is((await confirm(m2, 'matrix', two.length + second.length)).status, 200);

  // Either job sees all three files, shared.txt as job two sent it.
  for (const c of [m1, m2]) {
    files = await downloadArtifact(c, 'matrix');
    assert.equal(Object.keys(files).sort(), ['one.txt', 'shared.txt', 'two.txt']);
    assert.ok(files['one.txt']!.equals(one));
    assert.ok(files['two.txt']!.equals(two));
    assert.ok(files['shared.txt']!.equals(second));
    assert.equal(json<{ value: Array<{ name: string }> }>(await send(artifactsUrl(c), 'GET', c.token)).value.map((x) => x.name), ['matrix']);
  }
  const rows = await db.select().from(actionArtifacts).where(eq(actionArtifacts.name, 'matrix'));
  assert.equal(rows.map((r) => [r.runId, r.status]), [[m1.runId, 'upload_confirmed']]);
  assert.is(rows[0]!.size, one.length + two.length + second.length);
  assert.is((await db.select().from(actionArtifactFiles).where(eq(actionArtifactFiles.artifactId, rows[0]!.id))).length, 3);
  assert.not.ok(await hasBlob(app, 'actions_artifacts', oldShared), 'the replaced file is gone from storage');

  const api = app.client(owner.basic);
  const listed = await api.GET('/repos/{owner}/{repo}/actions/runs/{run}/artifacts', { params: { path: { owner: owner.username, repo: repoName, run: m1.runId } } });
  assert.equal(listed.data!.artifacts!.map((x) => [x.id, x.name, x.size_in_bytes]), [[rows[0]!.id, 'matrix', one.length + two.length + second.length]]);
  const zip = await api.GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip', { params: { path: { owner: owner.username, repo: repoName, artifact_id: rows[0]!.id } }, parseAs: 'arrayBuffer' });
  assert.is(zip.response.status, 200);
  const dir = join(app.services.deps.config.dataDir, 'tmp', `unzip-${rows[0]!.id}`);
  extractZip(Buffer.from(zip.data as ArrayBuffer), dir);
  const { readFileSync } = await import('node:fs');
  assert.ok(readFileSync(join(dir, 'one.txt')).equals(one));
  assert.ok(readFileSync(join(dir, 'two.txt')).equals(two));
  assert.ok(readFileSync(join(dir, 'shared.txt')).equals(second));

  // The same job uploading the name again (a later step) adds to it too.
  await uploadArtifact(m1, 'matrix', { 'later/three.txt': Buffer.from('3') });
  assert.equal(Object.keys(await downloadArtifact(m2, 'matrix')).sort(), ['later/three.txt', 'one.txt', 'shared.txt', 'two.txt']);
  assert.is((await db.select().from(actionArtifacts).where(eq(actionArtifacts.name, 'matrix'))).length, 1);
});

test('cleanup_actions expires a v3 artifact: its files go, the API shows it expired, its zip is 404', async () => {
  await uploadArtifact(a, 'short', { 'one.txt': Buffer.from('one'), 'sub/two.txt': Buffer.from('two') }, { gzip: true });
  const [row] = await app.services.deps.db.update(actionArtifacts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(actionArtifacts.name, 'short')).returning();
  assert.equal((await blobKeys(app, 'actions_artifacts', row!.storagePath)).length, 2, 'the folder of its two files');
  const outcome = await app.services.cron.run('cleanup_actions');
  assert.is(outcome.ran && outcome.status, 'ok', outcome.ran ? outcome.message : '');
  assert.equal(await blobKeys(app, 'actions_artifacts', row!.storagePath), []);
  const path = { owner: owner.username, repo: repoName, artifact_id: row!.id };
  const got = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}', { params: { path } });
  assert.is(got.data!.expired, true);
  const zip = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip', { params: { path }, parseAs: 'arrayBuffer' });
  assert.is(zip.response.status, 404);
  // And it is no longer offered to the task.
  assert.not.ok(json<{ value: Array<{ name: string }> }>(await send(artifactsUrl(a), 'GET', a.token)).value.some((x) => x.name === 'short'));
});

test.run();
