// ActionsListRepositoryWorkflows: the workflow files of the default branch, for every role.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { userRepo, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsReadRoles, pushFiles, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  for (const repo of [w.pub, w.priv]) {
    await pushFiles(app, w.owner, w.owner.username, repo.name, {
      '.gitea/workflows/build.yml': 'name: Build\non: push\njobs:\n  a:\n    runs-on: x\n',
      '.gitea/workflows/broken.yaml': 'on: push\n',
      '.gitea/workflows/notes.txt': 'not a workflow',
      '.github/workflows/ignored.yml': 'on: push\njobs:\n  a:\n    runs-on: x\n',
    });
  }
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repository, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/workflows', { params: { path: { owner: repo.owner!.login, repo: repo.name } } });

test('200: .gitea/workflows YAML files by name (.github/workflows only when .gitea has none); a broken one is listed by file name', async () => {
  const res = await list(w.pub);
  assert.is(res.response.status, 200);
  assertSpec('ActionsListRepositoryWorkflows', res);
  assert.is(res.data!.total_count, 2);
  assert.equal(res.data!.workflows.map((x) => [x.id, x.name, x.path, x.state]), [
    ['broken.yaml', 'broken.yaml', '.gitea/workflows/broken.yaml', 'active'],
    ['build.yml', 'Build', '.gitea/workflows/build.yml', 'active'],
  ]);
  const build = res.data!.workflows[1]!;
  assert.is(build.url, `${app.config.rootUrl}api/v1/repos/${w.owner.username}/${w.pub.name}/actions/workflows/build.yml`);
  assert.is(build.html_url, `${app.config.rootUrl}${w.owner.username}/${w.pub.name}/src/branch/main/.gitea/workflows/build.yml`);
});

test('200: .github/workflows when .gitea/workflows has none; an empty repository has none', async () => {
  const gh = await userRepo(app, w.owner, { auto_init: true });
  await pushFiles(app, w.owner, w.owner.username, gh.name, { '.github/workflows/ci.yml': 'on: push\njobs:\n  a:\n    runs-on: x\n' });
  assert.equal((await list(gh)).data!.workflows.map((x) => x.path), ['.github/workflows/ci.yml']);
  const empty = await userRepo(app, w.owner);
  const res = await list(empty);
  assert.is(res.response.status, 200);
  assert.equal(res.data, { workflows: [], total_count: 0 });
});

test('roles', async () => {
  await assertActionsReadRoles(app, w, 'ActionsListRepositoryWorkflows', (repo, auth) => list(repo, auth));
});

test.run();
