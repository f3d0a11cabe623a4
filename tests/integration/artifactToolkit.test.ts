// GitHub's REAL artifact client against anvil: `@actions/artifact` 2.x (what upload-artifact@v4 and
// download-artifact@v4 are built on: the v4 twirp ArtifactService, blocks to the signed URL through the
// Azure blob client) and its 1.x line (upload-artifact@v3: the v1–v3 pipeline protocol), run in a child
// process with the environment a runner gives a task's step. Each uploads files with the library's own
// uploadArtifact, lists and downloads them with the library, and the bytes are checked through the REST
// API's zip of the artifact too.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor } from '../helpers/repos.js';
import { fetchTask, pushFiles, registerRunner, runsOf } from '../helpers/actions.js';
import { eventually } from '../helpers/hooks.js';
import { toolkit, type ToolkitCall, type ToolkitTask } from '../helpers/artifactToolkit.js';
import { extractZip } from '../../src/runner/zip.js';

let app: TestApp;
let owner: Actor;
let repoName: string;
let task: ToolkitTask;
let scratch: string;

/** The files a step uploads: text, an empty file, one in a folder, and 9 MiB of random bytes (two 8 MiB blocks of the v4 upload). */
const files: Record<string, Buffer> = {
  'hello.txt': Buffer.from('hello from a job\n'),
  'empty.txt': Buffer.alloc(0),
  'dist/app.js': Buffer.from('console.log(1);\n'.repeat(5000)),
  'dist/blob.bin': randomBytes(9 * 1024 * 1024 + 123),
};

function writeTree(root: string, tree: Record<string, Buffer>): string[] {
  return Object.entries(tree).map(([p, bytes]) => {
    const full = join(root, p);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, bytes);
    return full;
  });
}

function assertTree(root: string, tree: Record<string, Buffer>, what: string): void {
  for (const [p, bytes] of Object.entries(tree)) assert.ok(readFileSync(join(root, p)).equals(bytes), `${what}: ${p}`);
}

async function apiZip(id: number): Promise<Record<string, Buffer>> {
  const res = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip', {
    params: { path: { owner: owner.username, repo: repoName, artifact_id: id } }, parseAs: 'arrayBuffer',
  });
  assert.is(res.response.status, 200);
  const dest = mkdtempSync(join(scratch, 'zip-'));
  const names = extractZip(Buffer.from(res.data as ArrayBuffer), dest);
  return Object.fromEntries(names.map((n) => [n, readFileSync(join(dest, n))]));
}

test.before(async () => {
  app = await startApp({ ACTIONS_POLL_INTERVAL_MS: '50' }, { workers: true, actions: true });
  owner = await actor(app);
  const repo = await userRepo(app, owner, { auto_init: true });
  repoName = repo.name;
  await pushFiles(app, owner, owner.username, repo.name, { '.gitea/workflows/a.yml': 'on: push\njobs:\n  j:\n    runs-on: toolkit\n    steps: [{run: x}]\n' });
  await runsOf(app, repo.id, 1);
  const runner = await registerRunner(app, ['toolkit']);
  const t = await eventually(() => fetchTask(runner), 'the task');
  const ctx = t.context as { server_url: string; gitea_runtime_token: string; run_id: string };
  scratch = mkdtempSync(join(tmpdir(), 'anvil-toolkit-'));
  task = { serverUrl: ctx.server_url, runtimeToken: ctx.gitea_runtime_token, runId: ctx.run_id, workspace: scratch };
});
test.after(async () => {
  await app.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The answers of `calls`, asserting each succeeded (with the library's log when one did not). */
async function run(calls: ToolkitCall[]): Promise<unknown[]> {
  const { answers, stdout } = await toolkit(task, calls);
  answers.forEach((a, i) => assert.ok(a.ok, `${calls[i]!.op}: ${a.error}\n${stdout}`));
  assert.is(answers.length, calls.length);
  return answers.map((a) => a.result);
}

test('@actions/artifact 2.x (v4): uploadArtifact, listArtifacts, getArtifact, downloadArtifact, deleteArtifact; the API zips the same bytes', async () => {
  const root = mkdtempSync(join(scratch, 'v4-up-'));
  const paths = writeTree(root, files);
  const down = mkdtempSync(join(scratch, 'v4-down-'));
  const [up] = (await run([{ version: 4, op: 'upload', name: 'build-v4', files: paths, root, retentionDays: 3 }])) as [{ id: number; size: number }];
  assert.ok(up.id > 0);
  const [listed, got, dl] = (await run([
    { version: 4, op: 'list' }, { version: 4, op: 'get', name: 'build-v4' }, { version: 4, op: 'download', id: up.id, path: down },
  ])) as [{ artifacts: Array<{ name: string; id: number; size: number }> }, { artifact: { id: number } }, { downloadPath: string; digestMismatch?: boolean }];
  assert.equal(listed.artifacts.map((a) => [a.name, a.id, a.size]), [['build-v4', up.id, up.size]]);
  assert.is(got.artifact.id, up.id);
  assert.not.ok(dl.digestMismatch, 'the digest the server lists is the uploaded zip\'s');
  assertTree(down, files, 'downloaded by the library');

  const viaApi = await apiZip(up.id);
  assert.equal(Object.keys(viaApi).sort(), Object.keys(files).sort());
  assertTree(down, viaApi, 'the API zip');
  const meta = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/runs/{run}/artifacts', { params: { path: { owner: owner.username, repo: repoName, run: Number(task.runId) } } });
  assert.equal(meta.data!.artifacts!.map((a) => [a.name, a.id, a.size_in_bytes]), [['build-v4', up.id, up.size]]);

  const again = await toolkit(task, [{ version: 4, op: 'upload', name: 'build-v4', files: paths.slice(0, 1), root }]);
  assert.not.ok(again.answers[0]!.ok, 'a second artifact of the name in the run is refused (409)');
  assert.match(again.answers[0]!.error!, /409|Conflict/i);

  const [del, after] = (await run([{ version: 4, op: 'delete', name: 'build-v4' }, { version: 4, op: 'list' }])) as [{ id: number }, { artifacts: unknown[] }];
  assert.is(del.id, up.id);
  assert.equal(after.artifacts, []);
});

test('@actions/artifact 1.x (v1–v3): uploadArtifact (chunked, gzip\'ed where it pays), downloadArtifact, downloadAllArtifacts; the API zips the same bytes', async () => {
  const root = mkdtempSync(join(scratch, 'v1-up-'));
  const paths = writeTree(root, files);
  const down = mkdtempSync(join(scratch, 'v1-down-'));
  const all = mkdtempSync(join(scratch, 'v1-all-'));
  const [up, dl, dlAll] = (await run([
    { version: 1, op: 'upload', name: 'build-v3', files: paths, root, retentionDays: 2 },
    { version: 1, op: 'download', name: 'build-v3', path: down },
    { version: 1, op: 'downloadAll', path: all },
  ])) as [{ failedItems: string[]; size: number }, { artifactName: string }, Array<{ artifactName: string }>];
  assert.equal(up.failedItems, []);
  assert.is(dl.artifactName, 'build-v3');
  assertTree(down, files, 'downloaded by the library');
  assert.equal(dlAll.map((a) => a.artifactName), ['build-v3']);
  assertTree(join(all, 'build-v3'), files, 'downloadAllArtifacts');

  const listed = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts', { params: { path: { owner: owner.username, repo: repoName }, query: { name: 'build-v3' } } });
  const [art] = listed.data!.artifacts!;
  assert.ok(art, 'listed by the API');
  assert.is(art!.size_in_bytes, Object.values(files).reduce((n, b) => n + b.length, 0));
  const viaApi = await apiZip(art!.id!);
  assert.equal(Object.keys(viaApi).sort(), Object.keys(files).sort());
  assertTree(down, viaApi, 'the API zip');
});

test.run();
