// getArtifactsOfRun: one run's artifacts; 404 for a run of another repository or none.
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

const list = (repo: Repository, run: number, auth: string | null = w.owner.basic, name?: string) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/runs/{run}/artifacts', { params: { path: { owner: repo.owner!.login, repo: repo.name, run }, query: name ? { name } : {} } });

test('200: only that run\'s artifacts, with the name filter', async () => {
  const [a, b] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }, { status: 'success' }]);
  const mine = await seedArtifact(app, a!, { name: 'x' });
  const also = await seedArtifact(app, a!, { name: 'y' });
  await seedArtifact(app, b!, { name: 'x' });
  const res = await list(w.pub, a!.run.id);
  assert.is(res.response.status, 200);
  assertSpec('getArtifactsOfRun', res);
  assert.equal(res.data!.artifacts.map((x) => x.id), [also.id, mine.id]);
  assert.equal((await list(w.pub, a!.run.id, w.owner.basic, 'x')).data!.artifacts.map((x) => x.id), [mine.id]);
});

test('404: an unknown run, another repository\'s run', async () => {
  const [other] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  for (const run of [987_654_321, other!.run.id]) {
    const res = await list(w.pub, run);
    assert.is(res.response.status, 404, `run ${run}`);
    assertSpec('getArtifactsOfRun', res);
  }
});

test('roles', async () => {
  const [p] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const [q] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  await assertActionsReadRoles(app, w, 'getArtifactsOfRun', (repo, auth) => list(repo, repo.id === w.pub.id ? p!.run.id : q!.run.id, auth));
});

test.run();
