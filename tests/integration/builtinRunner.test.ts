// The built-in runner end to end: a pushed workflow runs on the host through `npm run cli -- runner`'s
// code (src/runner), registered over the runner protocol like act_runner: jobs with needs, checkout with
// the task token, outputs, env, expressions, masking of secrets in the stored log, commit statuses and
// the workflow_run webhook; a failing step fails the job and the run; a cancel stops a running step;
// $GITHUB_ENV, $GITHUB_PATH, working-directory and timeout-minutes.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractZip } from '../../src/runner/zip.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor } from '../helpers/repos.js';
import { jobsOf, pushFiles, runsOf, workflow } from '../helpers/actions.js';
import { builtinRunner, endedRun, jobLog, type BuiltinRunner } from '../helpers/builtinRunner.js';
import { eventually, fastHooks, hookBody, receiver, repoHook } from '../helpers/hooks.js';

let app: TestApp;
let owner: Actor;
let runner: BuiltinRunner;

const extractNames = (zip: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-zip-'));
  try {
    return extractZip(zip, dir).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test.before(async () => {
  app = await startApp({ ACTIONS_POLL_INTERVAL_MS: '50', ...fastHooks }, { workers: true, actions: true });
  owner = await actor(app);
  runner = await builtinRunner(app);
});
test.after(async () => {
  await runner?.close();
  await app.close();
});

const ci = workflow(`
name: CI
on: push
env:
  GREETING: hello
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      version: \${{ steps.ver.outputs.version }}
    steps:
      - uses: actions/checkout@v4
      - name: read the checked-out file
        run: cat VERSION
      - id: ver
        run: echo "version=$(cat VERSION)" >> "$GITHUB_OUTPUT"
      - name: secret in a step
        run: |
          echo "token: \${{ secrets.GITEA_TOKEN }}"
          echo "::add-mask::very-private-words"
          echo "masked: very-private-words"
      - run: echo "FROM_ENV=carried" >> "$GITHUB_ENV"
      - run: echo "env is $FROM_ENV and $GREETING on \${{ github.ref_name }}"
      - if: \${{ github.event_name == 'pull_request' }}
        run: echo never
      - run: mkdir -p dist/sub && echo "built \${{ steps.ver.outputs.version }}" > dist/app.txt && echo nested > dist/sub/n.txt
      - uses: actions/upload-artifact@v4
        with:
          name: dist
          path: dist
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - name: use the need's output
        run: echo "got \${{ needs.build.outputs.version }} from \${{ needs.build.result }}"
      - shell: sh
        run: test "$GITHUB_JOB" = test
      - uses: actions/download-artifact@v4
        with:
          name: dist
          path: got
      - run: cat got/app.txt got/sub/n.txt
`);

test('a pushed workflow with two jobs (needs) runs to completion on the built-in runner; statuses and the workflow_run webhook say success; secrets are masked', async () => {
  const hooked = await receiver();
  try {
    const repo = await userRepo(app, owner, { auto_init: true, private: true });
    await repoHook(app, owner.basic, { owner: owner.username, repo: repo.name }, hookBody(hooked.url, { events: ['workflow_run'] }));
    const sha = await pushFiles(app, owner, owner.username, repo.name, { '.gitea/workflows/ci.yml': ci, VERSION: '1.2.3\n' });
    const [run] = await runsOf(app, repo.id, 1);
    const ended = await endedRun(app, run!.id);
    const jobs = await jobsOf(app, run!.id);
    const logs = await Promise.all(jobs.map((j) => jobLog(app, owner.basic, owner.username, repo.name, j.id)));
    assert.is(ended.status, 'success', logs.join('\n'));
    assert.equal(jobs.map((j) => [j.jobId, j.status]), [['build', 'success'], ['test', 'success']]);
    const [build, testLog] = logs as [string, string];
    if (process.env.DEBUG_RUNNER) console.log(logs.join('\n=====\n'));
    assert.match(build, '1.2.3');
    assert.match(build, 'token: ***');
    assert.not.match(build, /token: [0-9a-f]{40}/);
    assert.match(build, 'masked: ***');
    assert.not.match(build, 'very-private-words');
    assert.match(build, 'env is carried and hello on main');
    assert.not.match(build, 'never');
    assert.match(testLog, 'got 1.2.3 from success');
    assert.match(testLog, 'built 1.2.3');
    assert.match(testLog, 'nested');

    // The artifact through the API: listed for the repository and the run, readable, downloadable as its zip.
    const path = { owner: owner.username, repo: repo.name };
    const listed = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts', { params: { path } });
    assert.is(listed.response.status, 200);
    assert.is(listed.data!.total_count, 1);
    const art = listed.data!.artifacts![0]!;
    assert.equal([art.name, art.expired, art.workflow_run?.id, art.workflow_run?.head_sha], ['dist', false, run!.id, sha]);
    const ofRun = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/runs/{run}/artifacts', { params: { path: { ...path, run: run!.id } } });
    assert.equal(ofRun.data!.artifacts!.map((a) => a.id), [art.id]);
    const zip = await fetch(`${app.url}/api/v1/repos/${owner.username}/${repo.name}/actions/artifacts/${art.id}/zip`, { headers: { authorization: owner.basic } });
    assert.is(zip.status, 200);
    assert.is(zip.headers.get('content-type'), 'application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    assert.is(bytes.length, art.size_in_bytes);
    assert.equal(extractNames(bytes), ['app.txt', 'sub/n.txt']);

    const statuses = await app.client(owner.basic).GET('/repos/{owner}/{repo}/commits/{ref}/status', { params: { path: { owner: owner.username, repo: repo.name, ref: sha } } });
    assert.is(statuses.data!.state, 'success');
    assert.equal(statuses.data!.statuses!.map((s) => s.context).sort(), ['CI / build (push)', 'CI / test (push)']);

    const runs = await eventually(() => hooked.of('workflow_run').length >= 3 && hooked.of('workflow_run'), 'the completed workflow_run delivery');
    const done = JSON.parse(runs.at(-1)!.body) as { action: string; workflow_run: { status: string; conclusion: string } };
    assert.equal([done.action, done.workflow_run.status, done.workflow_run.conclusion], ['completed', 'completed', 'success']);
    // Each task ran in its own folder, removed when it ended.
    assert.not.ok(existsSync(`${runner.dir}/work/${jobs[0]!.taskId}`));
  } finally {
    await hooked.close();
  }
});

test('a dispatched matrix job sees the repository\'s and its owner\'s secrets and variables, its inputs and matrix; every secret is masked in the stored log, from bash and python steps alike', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const path = { owner: owner.username, repo: repo.name };
  const client = app.client(owner.basic);
  const secret = 'correct-horse-battery-staple';
  const ownerSecret = 'owner-level-value-42';
  assert.is((await client.PUT('/repos/{owner}/{repo}/actions/secrets/{secretname}', { params: { path: { ...path, secretname: 'DEPLOY_KEY' } }, body: { data: secret } })).response.status, 201);
  assert.is((await client.PUT('/user/actions/secrets/{secretname}', { params: { path: { secretname: 'OWNER_KEY' } }, body: { data: ownerSecret } })).response.status, 201);
  assert.is((await client.POST('/repos/{owner}/{repo}/actions/variables/{variablename}', { params: { path: { ...path, variablename: 'REGION' } }, body: { value: 'eu-west' } })).response.status, 201);
  await pushFiles(app, owner, owner.username, repo.name, {
    '.gitea/workflows/deploy.yml': workflow(`
on:
  workflow_dispatch:
    inputs:
      target:
        default: dev
jobs:
  deploy:
    strategy:
      matrix:
        n: [1, 2]
    runs-on: ubuntu-latest
    steps:
      - run: echo "deploy \${{ secrets.DEPLOY_KEY }} and \${{ secrets.OWNER_KEY }} to \${{ inputs.target }} in \${{ vars.REGION }} as n=\${{ matrix.n }}"
      - shell: python
        env:
          KEY: \${{ secrets.DEPLOY_KEY }}
        run: |
          import os
          print("python sees " + os.environ["KEY"] + " (" + str(len(os.environ["KEY"])) + " characters)")
`),
  });
  const sent = await client.POST('/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', { params: { path: { ...path, workflow_id: 'deploy.yml' } }, body: { ref: 'main', inputs: { target: 'staging' } } });
  assert.is(sent.response.status, 204);
  const [run] = await runsOf(app, repo.id, 1);
  const ended = await endedRun(app, run!.id);
  const jobs = await jobsOf(app, run!.id);
  const logs = await Promise.all(jobs.map((j) => jobLog(app, owner.basic, owner.username, repo.name, j.id)));
  assert.is(ended.status, 'success', logs.join('\n'));
  assert.is(jobs.length, 2);
  for (const [i, log] of logs.entries()) {
    assert.match(log, `deploy *** and *** to staging in eu-west as n=${i + 1}`);
    assert.match(log, `python sees *** (${secret.length} characters)`);
    assert.not.match(log, secret);
    assert.not.match(log, ownerSecret);
  }
});

test('a failing step fails its job and the run; later steps do not run unless if: failure(); continue-on-error carries on', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  await pushFiles(app, owner, owner.username, repo.name, {
    '.gitea/workflows/fail.yml': workflow(`
on: push
jobs:
  broken:
    runs-on: ubuntu-latest
    steps:
      - run: exit 3
        continue-on-error: true
      - run: echo survived
      - run: |
          echo before
          false
          echo after-false
      - run: echo not-reached
      - if: failure()
        run: echo cleaning-up
  after:
    needs: broken
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`),
  });
  const [run] = await runsOf(app, repo.id, 1);
  const ended = await endedRun(app, run!.id);
  assert.is(ended.status, 'failure');
  const jobs = await jobsOf(app, run!.id);
  assert.equal(jobs.map((j) => [j.jobId, j.status]), [['broken', 'failure'], ['after', 'skipped']]);
  const log = await jobLog(app, owner.basic, owner.username, repo.name, jobs[0]!.id);
  if (process.env.DEBUG_RUNNER) console.log(log);
  assert.match(log, 'survived');
  assert.match(log, 'before');
  assert.not.match(log, 'after-false');
  assert.not.match(log, 'not-reached');
  assert.match(log, 'cleaning-up');
  assert.match(log, 'Process completed with exit code 1.');
  const steps = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/jobs/{job_id}', { params: { path: { owner: owner.username, repo: repo.name, job_id: jobs[0]!.id } } });
  assert.equal(steps.data!.steps!.map((s) => s.conclusion), ['success', 'success', 'failure', 'skipped', 'success']);
});

test('$GITHUB_ENV and $GITHUB_PATH reach later steps, working-directory is honoured, $GITHUB_STEP_SUMMARY is a writable file; a step past its timeout-minutes is stopped and fails the job', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  await pushFiles(app, owner, owner.username, repo.name, {
    '.gitea/workflows/files.yml': workflow(`
on: push
jobs:
  files:
    runs-on: ubuntu-latest
    steps:
      - run: |
          mkdir -p sub/bin
          printf '#!/bin/sh\\necho tool-ran\\n' > sub/bin/mytool && chmod +x sub/bin/mytool
          echo "$PWD/sub/bin" >> "$GITHUB_PATH"
          echo "FROM_ENV=carried" >> "$GITHUB_ENV"
          echo "# summary" >> "$GITHUB_STEP_SUMMARY"
      - run: |
          mytool
          echo "env: $FROM_ENV"
          echo "in: $(basename "$PWD")"
        working-directory: sub
      - run: |
          echo slow-start
          sleep 60
          echo slow-end
        timeout-minutes: 0.05
      - run: echo after-timeout
`),
  });
  const [run] = await runsOf(app, repo.id, 1);
  const ended = await endedRun(app, run!.id);
  const [job] = await jobsOf(app, run!.id);
  const log = await jobLog(app, owner.basic, owner.username, repo.name, job!.id);
  assert.is(ended.status, 'failure', log);
  assert.match(log, 'tool-ran');
  assert.match(log, 'env: carried');
  assert.match(log, 'in: sub');
  assert.match(log, 'slow-start');
  assert.not.match(log, 'slow-end');
  assert.not.match(log, 'after-timeout');
  assert.match(log, 'has timed out after 0.05 minutes');
  const steps = await app.client(owner.basic).GET('/repos/{owner}/{repo}/actions/jobs/{job_id}', { params: { path: { owner: owner.username, repo: repo.name, job_id: job!.id } } });
  assert.equal(steps.data!.steps!.map((s) => s.conclusion), ['success', 'success', 'failure', 'skipped']);
});

test('another uses: fails the step with a clear message', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  await pushFiles(app, owner, owner.username, repo.name, {
    '.gitea/workflows/uses.yml': 'on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@v4\n',
  });
  const [run] = await runsOf(app, repo.id, 1);
  assert.is((await endedRun(app, run!.id)).status, 'failure');
  const [job] = await jobsOf(app, run!.id);
  assert.match(await jobLog(app, owner.basic, owner.username, repo.name, job!.id), 'actions/setup-node@v4: this runner does not download actions');
});

test('cancelling a run stops its running step', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  await pushFiles(app, owner, owner.username, repo.name, {
    '.gitea/workflows/slow.yml': 'on: push\njobs:\n  slow:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo sleeping\n          sleep 120\n          echo woke\n',
  });
  const [run] = await runsOf(app, repo.id, 1);
  const [job] = await jobsOf(app, run!.id);
  await eventually(async () => (await jobLog(app, owner.basic, owner.username, repo.name, job!.id)).includes('sleeping'), 'the step to start', 30_000);
  const started = Date.now();
  const cancel = await app.client(owner.basic).POST('/repos/{owner}/{repo}/actions/runs/{run}/cancel', { params: { path: { owner: owner.username, repo: repo.name, run: run!.id } } });
  assert.is(cancel.response.status, 202);
  assert.is((await endedRun(app, run!.id)).status, 'cancelled');
  // The runner hears of it at its next report and kills the step; the task's log ends.
  const log = await eventually(async () => {
    const text = await jobLog(app, owner.basic, owner.username, repo.name, job!.id);
    return text.includes('Job cancelled') && text;
  }, 'the runner to stop the step', 30_000);
  assert.not.match(log, 'woke');
  assert.ok(Date.now() - started < 30_000);
});

test.run();
