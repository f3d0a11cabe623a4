// downloadActionsRunJobLogs: the log a runner sent for the job, as plain text, for every role.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { actionsWorld, assertActionsReadRoles, fetchTask, finishTask, registerRunner, Result, seedRuns, type ActionsWorld } from '../../helpers/actions.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
});
test.after(async () => {
  await app.close();
});

const logs = async (repo: Repository, job: number, auth: string | null = w.owner.basic) => {
  const response = await fetch(`${app.url}/api/v1/repos/${repo.owner!.login}/${repo.name}/actions/jobs/${job}/logs`, { headers: auth ? { Authorization: auth } : {} });
  const text = await response.text();
  // A 200 is plain text (what the spec checker reads is JSON); the others are checked against the spec.
  if (response.ok) assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
  else assertSpecAnswer('downloadActionsRunJobLogs', response.status, text ? JSON.parse(text) : undefined);
  return { response, text };
};

test('200: the rows the runner sent, one line each; empty before the job ran', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting', jobs: ['waiting', 'waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const before = await logs(w.pub, s!.jobs[0]!.id);
  assert.is(before.response.status, 200);
  assert.is(before.text, '');
  const task = (await fetchTask(runner))!;
  await runner.client.updateLog({ taskId: task.id, index: 0n, rows: [{ content: 'first' }] });
  const partial = await logs(w.pub, s!.jobs[0]!.id);
  assert.match(partial.text, /^\S+ first\n$/, 'a log still being written');
  await runner.client.updateLog({ taskId: task.id, index: 1n, rows: [{ content: 'second' }] });
  await finishTask(runner, task, Result.SUCCESS, ['first', 'second', 'third']);
  const res = await logs(w.pub, s!.jobs[0]!.id);
  assert.is(res.response.status, 200);
  assert.match(res.response.headers.get('content-type') ?? '', /^text\/plain/);
  assert.equal(res.text.trimEnd().split('\n').map((l) => l.replace(/^\S+ /, '')), ['first', 'second', 'third']);
});

test('roles', async () => {
  const [a] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting' }]);
  const [b] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'waiting' }]);
  await assertActionsReadRoles(app, w, 'downloadActionsRunJobLogs', async (repo, auth) => {
    const { response } = await logs(repo, repo.id === w.pub.id ? a!.jobs[0]!.id : b!.jobs[0]!.id, auth);
    return { response, error: undefined };
  });
});

test('404: an unknown job, a job of another repository', async () => {
  const [other] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  for (const id of [313131, other!.jobs[0]!.id]) assert.is((await logs(w.pub, id)).response.status, 404);
});

test.run();
