// What a task receives (#35): the owner's secrets and variables overridden by the repository's, its own
// token as GITEA_TOKEN/GITHUB_TOKEN; a pull request from a fork gets no secrets and waits for approval
// (its author may not write and has no approved run). The task token works on the REST API as
// gitea-actions with write access to its own repository (a release), nothing else private, and stops
// when the task ends.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRuns } from '../../src/db/schema/index.js';
import { fetchTask, finishTask, pushFiles, registerRunner, Result, runsOf } from '../helpers/actions.js';
import { fork } from '../helpers/forks.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { openPull } from '../helpers/pulls.js';
import { actor, pathOf, userRepo, type Actor, type Repository } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let repo: Repository;
let hidden: Repository;
const wf = 'on:\n  push:\n    branches: [main]\n  pull_request:\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ secrets.DEPLOY }}\n';

test.before(async () => {
  app = await startApp({}, { actions: true });
  owner = await actor(app);
  repo = await userRepo(app, owner, { auto_init: true });
  hidden = await userRepo(app, owner, { auto_init: true, private: true });
  const s = app.services.actionSettings;
  await s.putSecret({ ownerId: owner.id, repoId: 0 }, 'DEPLOY', 'from-user', '');
  await s.putSecret({ ownerId: owner.id, repoId: 0 }, 'USER_ONLY', 'u', '');
  await s.putSecret({ ownerId: 0, repoId: repo.id }, 'deploy', 'from-repo', '');
  await s.createVariable({ ownerId: owner.id, repoId: 0 }, 'REGION', 'eu', '');
  await s.createVariable({ ownerId: 0, repoId: repo.id }, 'REGION', 'us', '');
  await s.createVariable({ ownerId: owner.id, repoId: 0 }, 'TIER', 'gold', '');
});
test.after(async () => {
  await app.close();
});

test('the task carries the repository\'s secrets over the owner\'s, the variables likewise, and its token; the token acts on the REST API', async () => {
  const runner = await registerRunner(app);
  await pushFiles(app, owner, owner.username, repo.name, { '.gitea/workflows/ci.yml': wf });
  await runsOf(app, repo.id, 1);
  const task = await fetchTask(runner);
  assert.ok(task, 'a task');
  const token = (task!.context as { token: string }).token;
  assert.equal(task!.secrets, { GITEA_TOKEN: token, GITHUB_TOKEN: token, DEPLOY: 'from-repo', USER_ONLY: 'u' });
  assert.equal(task!.vars, { REGION: 'us', TIER: 'gold' });

  const auth = `token ${token}`;
  const release = await app.client(auth).POST('/repos/{owner}/{repo}/releases', { params: { path: pathOf(repo) }, body: { tag_name: 'v1', name: 'by the task' } });
  assert.is(release.response.status, 201, JSON.stringify(release.error));
  assert.is((await app.client(auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(hidden) } })).response.status, 404, 'another private repository');
  const secrets = await app.client(auth).GET('/repos/{owner}/{repo}/actions/secrets', { params: { path: pathOf(repo) } });
  assert.is(secrets.response.status, 403, 'write, not admin: no secrets');
  await finishTask(runner, task!, Result.SUCCESS);
  assert.is((await app.client(auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } })).response.status, 401, 'an ended task\'s token');
});

test('a pull request from a fork: its run waits for approval, then its task gets no secrets (the token only) and a read-only token', async () => {
  const contributor = await actor(app);
  const forked = await fork(app, contributor, pathOf(repo));
  await pushFiles(app, contributor, contributor.username, forked.name, { 'feature.txt': 'x' }, { branch: 'feature' });
  const before = (await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.repoId, repo.id))).length;
  await openPull(app, repo, contributor, `${contributor.username}:feature`);
  const runs = await runsOf(app, repo.id, before + 1);
  const run = runs.find((r) => r.event === 'pull_request')!;
  assert.ok(run, 'a pull_request run');
  assert.equal([run.isForkPullRequest, run.needApproval], [true, true]);
  const runner = await registerRunner(app);
  assert.is(await fetchTask(runner), undefined, 'nothing to take before approval');
  const approve = await app.client(contributor.auth).POST('/repos/{owner}/{repo}/actions/runs/{run}/approve', { params: { path: { ...pathOf(repo), run: run.id } } });
  assert.is(approve.response.status, 403, 'the author cannot approve');
  const ok = await app.client(owner.auth).POST('/repos/{owner}/{repo}/actions/runs/{run}/approve', { params: { path: { ...pathOf(repo), run: run.id } } });
  assert.is(ok.response.status, 204);
  const again = await app.client(owner.auth).POST('/repos/{owner}/{repo}/actions/runs/{run}/approve', { params: { path: { ...pathOf(repo), run: run.id } } });
  assert.is(again.response.status, 409);
  const task = await fetchTask(runner);
  assert.ok(task, 'taken after approval');
  const token = (task!.context as { token: string }).token;
  assert.equal(task!.secrets, { GITEA_TOKEN: token, GITHUB_TOKEN: token });
  const release = await app.client(`token ${token}`).POST('/repos/{owner}/{repo}/releases', { params: { path: pathOf(repo) }, body: { tag_name: 'v2' } });
  assert.is(release.response.status, 403, 'a fork\'s token only reads');
  await finishTask(runner, task!, Result.SUCCESS);
});

test.run();
