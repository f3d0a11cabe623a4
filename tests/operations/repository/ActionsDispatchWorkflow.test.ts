// ActionsDispatchWorkflow: a workflow with workflow_dispatch runs by hand at a ref, with its inputs checked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsWriteRoles, jobsOf, pushFiles, runsOf, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
let sha: string;
const manual = `name: Deploy
on:
  workflow_dispatch:
    inputs:
      target:
        required: true
        type: choice
        options: [staging, production]
      dry:
        type: boolean
        default: true
      note:
        required: false
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: echo deploy
`;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  for (const repo of [w.pub, w.priv]) {
    const pushed = await pushFiles(app, w.owner, w.owner.username, repo.name, {
      '.gitea/workflows/deploy.yml': manual,
      '.gitea/workflows/push-only.yml': 'on: push\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n',
      '.gitea/workflows/broken.yml': 'on: workflow_dispatch\n',
    }, { branch: 'release' });
    if (repo === w.pub) sha = pushed;
  }
});
test.after(async () => {
  await app.close();
});

const dispatch = (repo: Repository, workflow: string, body: unknown, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
    params: { path: { owner: repo.owner!.login, repo: repo.name, workflow_id: workflow } }, body: body as never,
  });

test('204: a run of the workflow at the ref, event workflow_dispatch, inputs with their defaults', async () => {
  const res = await dispatch(w.pub, 'deploy.yml', { ref: 'release', inputs: { target: 'staging' } });
  assert.is(res.response.status, 204);
  assertSpec('ActionsDispatchWorkflow', res);
  const [run] = await runsOf(app, w.pub.id, 1);
  assert.equal([run!.event, run!.ref, run!.commitSha, run!.workflowName, run!.triggerUserId], ['workflow_dispatch', 'refs/heads/release', sha, 'Deploy', w.owner.id]);
  assert.equal((run!.eventPayload as { inputs: unknown }).inputs, { target: 'staging', dry: 'true' });
  assert.equal((await jobsOf(app, run!.id)).map((j) => [j.name, j.status]), [['deploy', 'waiting']]);
  // A commit id works too, and is the run's ref.
  assert.is((await dispatch(w.pub, 'deploy.yml', { ref: sha, inputs: { target: 'production', dry: 'false' } })).response.status, 204);
  const runs = await runsOf(app, w.pub.id, 2);
  assert.is(runs[1]!.ref, sha);
  assert.is(runs[1]!.index, 2);
});

test('422: inputs that are unknown, missing, or not one of the choices; no workflow_dispatch; a workflow that does not parse; no ref', async () => {
  const cases: Array<[string, unknown]> = [
    ['deploy.yml', { ref: 'release', inputs: { target: 'staging', other: 'x' } }],
    ['deploy.yml', { ref: 'release', inputs: {} }],
    ['deploy.yml', { ref: 'release', inputs: { target: 'moon' } }],
    ['deploy.yml', { ref: 'release', inputs: { target: 'staging', dry: 'maybe' } }],
    ['push-only.yml', { ref: 'release' }],
    ['broken.yml', { ref: 'release' }],
    ['deploy.yml', {}],
    ['deploy.yml', { ref: '' }],
  ];
  for (const [workflow, body] of cases) {
    const res = await dispatch(w.pub, workflow, body);
    assert.is(res.response.status, 422, `${workflow} ${JSON.stringify(body)}`);
    assertSpec('ActionsDispatchWorkflow', res);
  }
});

test('404: an unknown workflow or ref', async () => {
  for (const [workflow, ref] of [['nope.yml', 'release'], ['deploy.yml', 'no-such-branch'], ['deploy.yml', 'main']]) {
    const res = await dispatch(w.pub, workflow!, { ref, inputs: { target: 'staging' } });
    assert.is(res.response.status, 404, `${workflow}@${ref}`);
    assertSpec('ActionsDispatchWorkflow', res);
  }
});

test('401, 403, 404 by role; nothing runs', async () => {
  const before = (await runsOf(app, w.priv.id, 0)).length;
  await assertActionsWriteRoles(app, w, 'ActionsDispatchWorkflow', (repo, auth) => dispatch(repo, 'deploy.yml', { ref: 'release', inputs: { target: 'staging' } }, auth));
  assert.is((await runsOf(app, w.priv.id, 0)).length, before);
});

test.run();
