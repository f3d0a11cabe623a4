// getArtifact: one finalized or expired artifact of the repository; pending ones and others' are 404.
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

const get = (repo: Repository, id: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}', { params: { path: { owner: repo.owner!.login, repo: repo.name, artifact_id: id } } });

test('200: the artifact, expired ones too', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const a = await seedArtifact(app, s!, { name: 'dist', bytes: Buffer.from('0123456789') });
  const res = await get(w.pub, a.id);
  assert.is(res.response.status, 200);
  assertSpec('getArtifact', res);
  assert.equal([res.data!.id, res.data!.name, res.data!.size_in_bytes, res.data!.expired, res.data!.workflow_run.repository_id], [a.id, 'dist', 10, false, w.pub.id]);
  const gone = await seedArtifact(app, s!, { name: 'old', status: 'expired' });
  assert.is((await get(w.pub, gone.id)).data!.expired, true);
});

test('404: unknown, still uploading, another repository\'s', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const pending = await seedArtifact(app, s!, { status: 'upload_pending' });
  const [o] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  const others = await seedArtifact(app, o!);
  for (const id of [987_654_321, pending.id, others.id]) {
    const res = await get(w.pub, id);
    assert.is(res.response.status, 404, `artifact ${id}`);
    assertSpec('getArtifact', res);
  }
});

test('roles', async () => {
  const [p] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const [q] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  const ap = await seedArtifact(app, p!);
  const aq = await seedArtifact(app, q!);
  await assertActionsReadRoles(app, w, 'getArtifact', (repo, auth) => get(repo, repo.id === w.pub.id ? ap.id : aq.id, auth));
});

test.run();
