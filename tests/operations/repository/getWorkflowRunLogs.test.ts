// getWorkflowRunLogs: the run's logs_url, a zip with each job's log (as its own log endpoint reads), for every role.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractZip } from '../../../src/runner/zip.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { actionsWorld, assertActionsReadRoles, fetchTask, finishTask, registerRunner, Result, seedRuns, type ActionsWorld } from '../../helpers/actions.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ActionsWorld;
let work: string;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  work = mkdtempSync(join(tmpdir(), 'anvil-runlogs-'));
});
test.after(async () => {
  await app.close();
  rmSync(work, { recursive: true, force: true });
});

const archive = async (repo: Repository, run: number, auth: string | null = w.owner.basic) => {
  const response = await fetch(`${app.url}/api/v1/repos/${repo.owner!.login}/${repo.name}/actions/runs/${run}/logs`, { headers: auth ? { Authorization: auth } : {} });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.ok) assert.is(response.headers.get('content-type'), 'application/zip');
  else assertSpecAnswer('getWorkflowRunLogs', response.status, body.length ? JSON.parse(body.toString('utf8')) : undefined);
  return { response, body };
};

test('200: one file per job, each as the job log reads (compressed once complete), empty for a job not run', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting', jobs: ['waiting', 'waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const task = (await fetchTask(runner))!;
  const long = 'x'.repeat(70_000);
  await finishTask(runner, task, Result.FAILURE, ['first', long, 'third']);
  const { response, body } = await archive(w.pub, s!.run.id);
  assert.is(response.status, 200);
  assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename\*=UTF-8''.*logs\.zip/);
  const dest = join(work, 'a');
  const names = extractZip(body, dest).sort();
  assert.is(names.length, 2, names.join(','));
  const jobLog = async (id: number) => (await fetch(`${app.url}/api/v1/repos/${w.pub.owner!.login}/${w.pub.name}/actions/jobs/${id}/logs`)).text();
  // In job order, each file what the job's own log endpoint answers: one has the rows, the other is empty.
  const texts = names.map((n) => readFileSync(join(dest, n), 'utf8'));
  assert.equal(texts, [await jobLog(s!.jobs[0]!.id), await jobLog(s!.jobs[1]!.id)]);
  const ranText = texts.find((t) => t.length > 0)!;
  assert.equal(ranText.trimEnd().split('\n').map((l) => l.replace(/^\S+ /, '')), ['first', long, 'third']);
  assert.is(texts.filter((t) => t === '').length, 1, 'the job not run is an empty file');
  assert.ok(names.every((n) => /^\d+_.+\.txt$/.test(n)), names.join(','));
});

test('roles', async () => {
  const [a] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting' }]);
  const [b] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'waiting' }]);
  await assertActionsReadRoles(app, w, 'getWorkflowRunLogs', async (repo, auth) => {
    const { response } = await archive(repo, repo.id === w.pub.id ? a!.run.id : b!.run.id, auth);
    return { response, error: undefined };
  });
});

test('404: an unknown run, a run of another repository', async () => {
  const [other] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  for (const id of [313131, other!.run.id]) assert.is((await archive(w.pub, id)).response.status, 404);
});

test.run();
