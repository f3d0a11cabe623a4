// The Actions loop end to end: a workflow pushed over smart HTTP → a run and its jobs → runners speaking
// Gitea's protocol (binary protobuf over Connect) take the jobs, report steps and logs, finish → `needs`
// unblock or skip → the run ends → commit statuses and the admin lists show it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { Code, ConnectError } from '@connectrpc/connect';
import { eq } from 'drizzle-orm';
import { actionTaskLogChunks, actionTasks, actionTriggers } from '../../src/db/schema/index.js';
import { storedLog } from '../helpers/blobs.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor } from '../helpers/repos.js';
import {
  fetchTask, finishTask, jobIdOf, jobsOf, pushFiles, registerRunner, registerWith, Result, runnerClient, runsOf, workflow, type TestRunner,
} from '../helpers/actions.js';
import { eventually, fastHooks, hookBody, receiver, repoHook } from '../helpers/hooks.js';
import { dirOf, disk } from '../helpers/gitFixtures.js';
import { gitWorkspace } from '../helpers/events.js';

let app: TestApp;
let owner: Actor;
let runner: TestRunner;

test.before(async () => {
  app = await startApp({ ACTIONS_POLL_INTERVAL_MS: '50', ...fastHooks }, { workers: true, actions: true });
  owner = await actor(app);
  runner = await registerRunner(app, ['ubuntu-latest', 'linux']);
});
test.after(async () => {
  await app.close();
});

const ci = workflow(`
name: CI
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - name: unit tests
        run: npm test
  deploy:
    needs: test
    runs-on: linux
    steps:
      - run: echo deploy
  report:
    needs: test
    if: \${{ failure() }}
    runs-on: linux
    steps:
      - run: echo report
`);

async function repoWith(files: Record<string, string>, opts: { branch?: string; tag?: string } = {}) {
  const repo = await userRepo(app, owner, { auto_init: true });
  const sha = await pushFiles(app, owner, owner.username, repo.name, files, opts);
  return { repo, sha };
}

/** Takes tasks until `jobId`'s comes (finishing none of the others: there are none waiting here). */
async function take(r: TestRunner, jobId: string) {
  const task = await eventually(() => fetchTask(r), `a task for ${jobId}`);
  assert.is(jobIdOf(task), jobId);
  return task;
}

test('a push makes a run; the runner takes its jobs in order of needs; a failure skips dependants and starts failure() jobs', async () => {
  const { repo, sha } = await repoWith({ '.gitea/workflows/ci.yml': ci });
  const [run] = await runsOf(app, repo.id, 1);
  assert.is(run!.event, 'push');
  assert.is(run!.ref, 'refs/heads/main');
  assert.is(run!.commitSha, sha);
  assert.is(run!.index, 1);
  assert.is(run!.workflowId, 'ci.yml');
  assert.is(run!.status, 'waiting');
  const jobs = await jobsOf(app, run!.id);
  assert.equal(jobs.map((j) => [j.jobId, j.status]), [['build', 'waiting'], ['test', 'blocked'], ['deploy', 'blocked'], ['report', 'blocked']]);

  const build = await take(runner, 'build');
  // What act_runner needs: the job alone in its workflow, and the github context.
  const payload = parse(new TextDecoder().decode(build.workflowPayload)) as { name: string; jobs: Record<string, unknown> };
  assert.is(payload.name, 'CI');
  assert.equal(Object.keys(payload.jobs), ['build']);
  const ctx = build.context as Record<string, unknown>;
  assert.is(ctx.sha, sha);
  assert.is(ctx.ref, 'refs/heads/main');
  assert.is(ctx.repository, `${owner.username}/${repo.name}`);
  assert.is(ctx.event_name, 'push');
  assert.is(ctx.actor, owner.username);
  assert.is((ctx.event as { after?: string }).after, sha, 'github.event is the push payload');
  assert.ok(build.secrets.GITEA_TOKEN);
  assert.is(await fetchTask(runner), undefined, 'test waits for build');
  await finishTask(runner, build, Result.SUCCESS, ['line 1', 'line 2']);

  const testTask = await take(runner, 'test');
  assert.is(testTask.needs.build?.result, Result.SUCCESS);
  await finishTask(runner, testTask, Result.FAILURE);

  const report = await take(runner, 'report');
  await finishTask(runner, report, Result.SUCCESS);
  const after = await jobsOf(app, run!.id);
  assert.equal(after.map((j) => [j.jobId, j.status]), [['build', 'success'], ['test', 'failure'], ['deploy', 'skipped'], ['report', 'success']]);
  const [ended] = await runsOf(app, repo.id, 1);
  assert.is(ended!.status, 'failure');
  assert.ok(ended!.stopped);

  // Each job reported its state as a commit status.
  const statuses = await app.client(owner.basic).GET('/repos/{owner}/{repo}/statuses/{sha}', { params: { path: { owner: owner.username, repo: repo.name, sha } } });
  const latest = new Map<string, string>();
  for (const s of [...statuses.data!].reverse()) latest.set(s.context, s.status);
  assert.equal(Object.fromEntries(latest), {
    'CI / build (push)': 'success', 'CI / test (push)': 'failure', 'CI / deploy (push)': 'skipped', 'CI / report (push)': 'success',
  });

  // The log was received (kept in the database while the task ran), and moved into the actions_log
  // storage, compressed, when the runner said no more.
  const [task] = await app.services.deps.db.select().from(actionTasks).where(eq(actionTasks.id, Number(build.id)));
  assert.ok(task!.logCompressed);
  assert.is(task!.logFile, `${repo.id}/${build.id}.log.gz`);
  assert.match((await storedLog(app, task!.logFile))!, /^\S+Z line 1\n\S+Z line 2\n$/);
  assert.is((await app.services.deps.db.select().from(actionTaskLogChunks).where(eq(actionTaskLogChunks.taskId, task!.id))).length, 0, 'no rows left in the database');
  // The local folder keeps the layout of older anvils: $DATA_DIR/actions_log/<repo>/<task>.log.gz.
  if (app.config.storage.actions_log.type === 'local') assert.ok(existsSync(join(app.config.dataDir, 'actions_log', task!.logFile)));

  // The admin lists show the run and its jobs.
  const runs = await app.client(app.admin.basic).GET('/admin/actions/runs', { params: { query: { head_sha: sha } } });
  assert.is(runs.data!.total_count, 1);
  assert.is(runs.data!.workflow_runs[0]!.status, 'completed');
  assert.is(runs.data!.workflow_runs[0]!.conclusion, 'failure');
  const listed = await app.client(app.admin.basic).GET('/admin/actions/jobs', { params: { query: { status: ['failure'] } } });
  const failed = listed.data!.jobs.find((j) => j.run_id === run!.id)!;
  assert.is(failed.name, 'test');
  assert.is(failed.runner_name, runner.name);
  assert.equal(failed.steps.map((s) => [s.name, s.status, s.conclusion]), [['unit tests', 'completed', 'failure']]);
});

test('a matrix makes one job per combination; two runners polling at once never take the same one', async () => {
  const { repo } = await repoWith({
    '.github/workflows/matrix.yaml': workflow(`
on: push
jobs:
  build:
    strategy:
      matrix:
        os: [a, b, c]
        node: [18, 20]
        exclude:
          - os: c
            node: 18
        include:
          - os: d
            node: 22
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ matrix.os }}
`),
  });
  const [run] = await runsOf(app, repo.id, 1);
  const jobs = await jobsOf(app, run!.id);
  assert.equal(jobs.map((j) => j.name), ['build (a, 18)', 'build (a, 20)', 'build (b, 18)', 'build (b, 20)', 'build (c, 20)', 'build (d, 22)']);
  const second = await registerRunner(app, ['ubuntu-latest']);
  const taken: bigint[][] = [[], []];
  // Each runner takes one job first, in turn: the second is given work while the first holds some.
  for (const [i, r] of [runner, second].entries()) {
    const task = await fetchTask(r);
    assert.ok(task, `runner ${i + 1} is given a job of the run`);
    taken[i]!.push(task!.id);
  }
  await Promise.all([runner, second].map(async (r, i) => {
    for (;;) {
      const task = await fetchTask(r);
      if (!task) break;
      taken[i]!.push(task.id);
      const matrix = (parse(new TextDecoder().decode(task.workflowPayload)) as { jobs: { build: { strategy: { matrix: Record<string, unknown[]> } } } }).jobs.build.strategy.matrix;
      assert.is(Object.values(matrix).every((v) => v.length === 1), true, 'the payload carries its one combination');
    }
  }));
  const all = [...taken[0]!, ...taken[1]!];
  assert.is(all.length, 6);
  assert.is(new Set(all).size, 6, 'no task given twice');
});

test('runs-on labels: a job is only given to a runner that has every label', async () => {
  const { repo } = await repoWith({ '.gitea/workflows/gpu.yml': 'on: push\njobs:\n  train:\n    runs-on: [linux, gpu]\n    steps:\n      - run: train\n' });
  const [run] = await runsOf(app, repo.id, 1);
  assert.is(await fetchTask(runner), undefined, 'runner has linux but not gpu');
  const gpu = await registerRunner(app, ['linux', 'gpu:docker://cuda']);
  const task = await fetchTask(gpu);
  assert.ok(task);
  assert.is((await jobsOf(app, run!.id))[0]!.status, 'running');
  await finishTask(gpu, task!, Result.SUCCESS);
});

test('a repository\'s runner takes only that repository\'s jobs; an organization\'s only its repositories\'', async () => {
  const mine = await userRepo(app, owner, { auto_init: true });
  const tokenRes = await app.client(owner.basic).POST('/repos/{owner}/{repo}/actions/runners/registration-token', { params: { path: { owner: owner.username, repo: mine.name } } });
  const scoped = await registerWith(app, tokenRes.data!.token, ['scoped']);
  const wf = { '.gitea/workflows/s.yml': 'on: push\njobs:\n  s:\n    runs-on: scoped\n    steps: [{run: x}]\n' };
  const { repo: elsewhere } = await repoWith(wf);
  await runsOf(app, elsewhere.id, 1);
  assert.is(await fetchTask(scoped), undefined, 'another repository\'s job');
  await pushFiles(app, owner, owner.username, mine.name, wf);
  const [run] = await runsOf(app, mine.id, 1);
  const task = await eventually(() => fetchTask(scoped), 'its own job');
  assert.is((task.context as { repository: string }).repository, `${owner.username}/${mine.name}`);
  await finishTask(scoped, task, Result.SUCCESS);
  assert.is((await jobsOf(app, run!.id))[0]!.status, 'success');
  // The other repository's job is left for a runner that may take it.
  assert.is((await jobsOf(app, (await runsOf(app, elsewhere.id, 1))[0]!.id))[0]!.status, 'waiting');
  const site = await registerRunner(app, ['scoped']);
  const other = await fetchTask(site);
  assert.ok(other);
  await finishTask(site, other!, Result.SUCCESS);
});

test('pull requests: opened and synchronize start on: pull_request workflows at the head (refs/pull/N/head), filtered by types and base branch', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const files = {
    '.gitea/workflows/pr.yml': 'name: PR\non:\n  pull_request:\n    branches: [main]\njobs:\n  check:\n    runs-on: none\n    steps: [{run: x}]\n',
    '.gitea/workflows/opened.yml': 'on:\n  pull_request:\n    types: [opened]\njobs:\n  hello:\n    runs-on: none\n    steps: [{run: x}]\n',
  };
  const head = await pushFiles(app, owner, owner.username, repo.name, files, { branch: 'feature' });
  const path = { owner: owner.username, repo: repo.name };
  const opened = await app.client(owner.basic).POST('/repos/{owner}/{repo}/pulls', { params: { path }, body: { head: 'feature', base: 'main', title: 'a change' } });
  assert.is(opened.response.status, 201);
  const n = opened.data!.number;
  const runs = await runsOf(app, repo.id, 2);
  assert.equal(runs.map((r) => [r.workflowId, r.event, r.ref, r.commitSha]).sort(), [
    ['opened.yml', 'pull_request', `refs/pull/${n}/head`, head], ['pr.yml', 'pull_request', `refs/pull/${n}/head`, head],
  ]);
  const dir = dirOf(app, repo);
  assert.is(await disk.rev(dir, `refs/pull/${n}/head`), head, 'the head is fetchable at refs/pull/N/head');
  const listed = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/runs/{run}', { params: { path: { ...path, run: runs[0]!.id } } });
  assert.equal(listed.data!.pull_requests.map((p) => [p.number, p.head.ref, p.head.sha, p.base.ref]), [[n, 'feature', head, 'main']]);
  // The head branch moves: synchronize runs pr.yml (default types) but not opened.yml.
  const next = await pushFiles(app, owner, owner.username, repo.name, { 'more.txt': 'more' }, { branch: 'feature' });
  const after = await runsOf(app, repo.id, 3);
  assert.equal([after[2]!.workflowId, after[2]!.commitSha], ['pr.yml', next]);
  assert.is(await disk.rev(dir, `refs/pull/${n}/head`), next);
  // A pull request into another base: the branches filter leaves pr.yml out.
  await pushFiles(app, owner, owner.username, repo.name, { 'base.txt': 'b' }, { branch: 'release' });
  const other = await app.client(owner.basic).POST('/repos/{owner}/{repo}/pulls', { params: { path }, body: { head: 'feature', base: 'release', title: 'into release' } });
  assert.is(other.response.status, 201);
  const last = await runsOf(app, repo.id, 4);
  await eventually(async () => (await app.services.deps.db.select().from(actionTriggers)).length === 0, 'an empty trigger queue');
  assert.equal((await runsOf(app, repo.id, 4)).slice(3).map((r) => [r.workflowId, r.ref]), [['opened.yml', `refs/pull/${other.data!.number}/head`]]);
  assert.is(last.length, 4);
});

test('push filters: branches, tags and paths decide which workflows run', async () => {
  const files = {
    '.gitea/workflows/main-only.yml': 'on:\n  push:\n    branches: [main]\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n',
    '.gitea/workflows/release.yml': "on:\n  push:\n    tags: ['v*']\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n",
    '.gitea/workflows/docs.yml': "on:\n  push:\n    paths: ['docs/**']\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n",
    '.gitea/workflows/not-feature.yml': "on:\n  push:\n    branches-ignore: ['feature/**']\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n",
  };
  const repo = await userRepo(app, owner, { auto_init: true });
  await pushFiles(app, owner, owner.username, repo.name, files, { tag: 'v1.0' });
  // main: main-only and not-feature (docs/ untouched); the tag: release, and docs (paths are not
  // evaluated for tags, as in GitHub and Gitea).
  let runs = await runsOf(app, repo.id, 4);
  assert.equal(runs.map((r) => `${r.workflowId}@${r.ref}`).sort(), ['docs.yml@refs/tags/v1.0', 'main-only.yml@refs/heads/main', 'not-feature.yml@refs/heads/main', 'release.yml@refs/tags/v1.0']);
  await pushFiles(app, owner, owner.username, repo.name, { 'docs/index.md': '# docs' }, { branch: 'feature/x' });
  await pushFiles(app, owner, owner.username, repo.name, { 'src.txt': 'x' }, { branch: 'topic' });
  runs = await runsOf(app, repo.id, 6);
  // Both pushes were turned into runs (the trigger queue is empty): nothing else is coming.
  await eventually(async () => (await app.services.deps.db.select().from(actionTriggers)).length === 0, 'an empty trigger queue');
  runs = await runsOf(app, repo.id, 6);
  assert.equal(runs.slice(4).map((r) => `${r.workflowId}@${r.ref}`), ['docs.yml@refs/heads/feature/x', 'not-feature.yml@refs/heads/topic']);
  assert.equal(runs.map((r) => r.index), [1, 2, 3, 4, 5, 6]);
});

test('a workflow that does not parse makes a failed run that says why; the others still run', async () => {
  const { repo } = await repoWith({
    '.gitea/workflows/bad.yml': 'on: push\njobs:\n  a:\n    needs: nothing\n    runs-on: x\n',
    '.gitea/workflows/good.yml': 'on: push\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n',
  });
  const runs = await runsOf(app, repo.id, 2);
  const bad = runs.find((r) => r.workflowId === 'bad.yml')!;
  assert.is(bad.status, 'failure');
  assert.is(bad.title, 'bad.yml: job "a" needs "nothing", which does not exist');
  assert.equal(await jobsOf(app, bad.id), []);
  assert.is(runs.find((r) => r.workflowId === 'good.yml')!.status, 'waiting');
});

test('webhooks: workflow_run (requested, in_progress, completed) and workflow_job (queued, in_progress, completed) with their payloads', async () => {
  const hooked = await receiver();
  try {
    const repo = await userRepo(app, owner, { auto_init: true });
    await repoHook(app, owner.basic, { owner: owner.username, repo: repo.name }, hookBody(hooked.url, { events: ['workflow_run', 'workflow_job'] }));
    await pushFiles(app, owner, owner.username, repo.name, { '.gitea/workflows/hooked.yml': 'name: Hooked\non: push\njobs:\n  only:\n    runs-on: hooked\n    steps: [{run: x}]\n' });
    const [run] = await runsOf(app, repo.id, 1);
    const r = await registerRunner(app, ['hooked']);
    const task = await eventually(() => fetchTask(r), 'the job');
    await finishTask(r, task, Result.FAILURE);
    const runs = await eventually(() => hooked.of('workflow_run').length >= 3 && hooked.of('workflow_run'), 'three workflow_run deliveries');
    const jobs = await eventually(() => hooked.of('workflow_job').length >= 3 && hooked.of('workflow_job'), 'three workflow_job deliveries');
    const body = (x: { body: string }) => JSON.parse(x.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(runs.map((x) => body(x).action), ['requested', 'in_progress', 'completed']);
    assert.equal(jobs.map((x) => body(x).action), ['queued', 'in_progress', 'completed']);
    assert.is(runs[0]!.headers['x-gitea-event'], 'workflow_run');
    const done = body(runs[2]!);
    assert.equal([done.workflow_run.id, done.workflow_run.status, done.workflow_run.conclusion, done.workflow.name, done.workflow.path], [run!.id, 'completed', 'failure', 'Hooked', '.gitea/workflows/hooked.yml']);
    assert.is(done.repository.full_name, `${owner.username}/${repo.name}`);
    assert.is(done.sender.login, owner.username);
    const ended = body(jobs[2]!);
    assert.equal([ended.workflow_job.name, ended.workflow_job.status, ended.workflow_job.conclusion, ended.workflow_job.runner_name], ['only', 'completed', 'failure', r.name]);
  } finally {
    await hooked.close();
  }
});

test('a running task\'s token clones its own (private) repository over HTTP, as actions/checkout does; not another, no push, not after the task', async () => {
  const priv = await userRepo(app, owner, { auto_init: true, private: true });
  const otherPriv = await userRepo(app, owner, { auto_init: true, private: true });
  await pushFiles(app, owner, owner.username, priv.name, { '.gitea/workflows/c.yml': 'on: push\njobs:\n  c:\n    runs-on: checkout\n    steps: [{uses: actions/checkout@v4}]\n' });
  await runsOf(app, priv.id, 1);
  const r = await registerRunner(app, ['checkout']);
  const task = await eventually(() => fetchTask(r), 'the job');
  const token = task.secrets.GITEA_TOKEN!;
  const ws = gitWorkspace(app);
  try {
    const url = (repo: string) => `${app.url.replace('://', `://x-access-token:${token}@`)}/${owner.username}/${repo}.git`;
    const clone = await ws.run(['clone', '-q', url(priv.name), `${ws.root}/c1`]);
    assert.is(clone.code, 0, clone.stderr);
    assert.is((await ws.run(['clone', '-q', url(otherPriv.name), `${ws.root}/c2`])).code !== 0, true, 'another repository');
    await ws.must(['commit', '-q', '--allow-empty', '-m', 'x'], `${ws.root}/c1`);
    assert.is((await ws.run(['push', '-q', 'origin', 'HEAD:refs/heads/main'], `${ws.root}/c1`)).code !== 0, true, 'no push');
    await finishTask(r, task, Result.SUCCESS);
    assert.is((await ws.run(['clone', '-q', url(priv.name), `${ws.root}/c3`])).code !== 0, true, 'the task ended');
  } finally {
    ws.close();
  }
});

test('runner protocol: ping; unknown registration token and unknown runner are Unauthenticated; a disabled runner gets no task; JSON works too', async () => {
  const ping = await fetch(`${app.url}/api/actions/ping.v1.PingService/Ping`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data: 'runner' }) });
  assert.equal(await ping.json(), { data: 'Hello, runner!' });
  const code = async (p: Promise<unknown>) => {
    try {
      await p;
      return undefined;
    } catch (err) {
      return (err as ConnectError).code;
    }
  };
  assert.is(await code(runnerClient(app).register({ name: 'x', token: 'nope', labels: [] })), Code.Unauthenticated);
  assert.is(await code(runnerClient(app, { uuid: runner.uuid, token: 'wrong' }).fetchTask({})), Code.Unauthenticated);
  assert.is(await code(runnerClient(app).fetchTask({})), Code.Unauthenticated);
  const json = runnerClient(app, { uuid: runner.uuid, token: 'wrong' }, { json: true });
  assert.is(await code(json.declare({ labels: [] })), Code.Unauthenticated);

  const { repo } = await repoWith({ '.gitea/workflows/w.yml': 'on: push\njobs:\n  solo:\n    runs-on: solo\n    steps: [{run: x}]\n' });
  await runsOf(app, repo.id, 1);
  const solo = await registerRunner(app, ['solo']);
  const patch = await app.client(app.admin.basic).PATCH('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: String(solo.id) } }, body: { disabled: true } });
  assert.is(patch.data!.disabled, true);
  const { tasksVersion: seen } = await solo.client.fetchTask({ tasksVersion: 0n });
  assert.is(await fetchTask(solo), undefined, 'disabled: nothing');
  await app.client(app.admin.basic).PATCH('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: String(solo.id) } }, body: { disabled: false } });
  // Polling with the version it saw while disabled: enabling it moved the version, so it searches.
  const task = (await solo.client.fetchTask({ tasksVersion: seen })).task;
  assert.ok(task, 'enabled again: the job');
  // Another runner cannot report on it.
  assert.is(await code(runner.client.updateTask({ state: { id: task!.id, result: Result.SUCCESS } })), Code.NotFound);
  // An unchanged tasks_version is answered without a task.
  const { tasksVersion } = await solo.client.fetchTask({ tasksVersion: 0n });
  assert.is((await solo.client.fetchTask({ tasksVersion })).task, undefined);
  await finishTask(solo, task!, Result.CANCELLED);
  // Logs: rows already received are skipped, a gap is not appended.
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `r${i}` }));
  const noLog = await solo.client.updateLog({ taskId: task!.id, index: 5n, rows: rows(2) });
  assert.is(noLog.ackIndex, 1n, 'the log is closed: what was received stays');
});

test.run();
