// getArtifacts: a repository's finalized and expired artifacts, newest first, with a name filter and pages;
// pending uploads and other repositories' artifacts are not listed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsReadRoles, seedRuns, type ActionsWorld } from '../../helpers/actions.js';
import { seedArtifact } from '../../helpers/artifacts.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repository, query: { name?: string; page?: number; limit?: number } = {}, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/artifacts', { params: { path: { owner: repo.owner!.login, repo: repo.name }, query } });

test('200: finalized and expired artifacts, newest first; pending ones and other repositories\' are not listed; name filter; pages', async () => {
  const [a, b] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }, { status: 'success' }]);
  const one = await seedArtifact(app, a!, { name: 'one' });
  const two = await seedArtifact(app, b!, { name: 'two', status: 'expired' });
  await seedArtifact(app, b!, { name: 'pending', status: 'upload_pending' });
  const [other] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  await seedArtifact(app, other!, { name: 'one' });
  const res = await list(w.pub);
  assert.is(res.response.status, 200);
  assertSpec('getArtifacts', res);
  assert.equal(res.data!.artifacts.map((x) => [x.id, x.name, x.expired]), [[two.id, 'two', true], [one.id, 'one', false]]);
  assert.is(res.data!.total_count, 2);
  const first = res.data!.artifacts[1]!;
  assert.is(first.workflow_run.id, a!.run.id);
  assert.is(first.workflow_run.head_sha, a!.run.commitSha);
  assert.is(first.archive_download_url, `${first.url}/zip`);
  assert.ok(first.url.endsWith(`/api/v1/repos/${w.owner.username}/${w.pub.name}/actions/artifacts/${one.id}`));
  const named = await list(w.pub, { name: 'one' });
  assert.equal(named.data!.artifacts.map((x) => x.id), [one.id]);
  const paged = await list(w.pub, { limit: 1, page: 2 });
  assert.equal(paged.data!.artifacts.map((x) => x.id), [one.id]);
  assert.is(paged.response.headers.get('x-total-count'), '2');
});

test('roles: anonymous reads a public repository; a private one is 404 to outsiders and readable by a collaborator', async () => {
  await assertActionsReadRoles(app, w, 'getArtifacts', (repo, auth) => list(repo, {}, auth));
});

test('404: a repository with Actions switched off', async () => {
  const off = await app.client(w.owner.basic).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: w.owner.username, repo: w.pub.name } }, body: { has_actions: false } });
  assert.is(off.response.status, 200);
  try {
    const res = await list(w.pub);
    assert.is(res.response.status, 404);
    assertSpec('getArtifacts', res);
  } finally {
    await app.client(w.owner.basic).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: w.owner.username, repo: w.pub.name } }, body: { has_actions: true } });
  }
});

test.run();
