// deleteArtifact: the artifact and its file go; writers only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsWriteRoles, seedRuns, type ActionsWorld } from '../../helpers/actions.js';
import { seedArtifact } from '../../helpers/artifacts.js';
import { hasBlob } from '../../helpers/blobs.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
});
test.after(async () => {
  await app.close();
});

const del = (repo: Repository, id: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).DELETE('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}', { params: { path: { owner: repo.owner!.login, repo: repo.name, artifact_id: id } } });

test('204: the artifact and its file are gone', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const a = await seedArtifact(app, s!);
  assert.ok(await hasBlob(app, 'actions_artifacts', a.storagePath));
  const res = await del(w.pub, a.id);
  assert.is(res.response.status, 204);
  assertSpec('deleteArtifact', res);
  assert.not.ok(await hasBlob(app, 'actions_artifacts', a.storagePath));
  assert.is((await app.client(w.owner.basic).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}', { params: { path: { owner: w.owner.username, repo: w.pub.name, artifact_id: a.id } } })).response.status, 404);
  assert.is((await del(w.pub, a.id)).response.status, 404);
});

test('404: another repository\'s artifact', async () => {
  const [o] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  const others = await seedArtifact(app, o!);
  const res = await del(w.pub, others.id);
  assert.is(res.response.status, 404);
  assertSpec('deleteArtifact', res);
});

test('roles: 401 anonymous, 404 an outsider of a private repository, 403 a reader; nothing deleted', async () => {
  const [p] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const [q] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  const ap = await seedArtifact(app, p!);
  const aq = await seedArtifact(app, q!);
  await assertActionsWriteRoles(app, w, 'deleteArtifact', (repo, auth) => del(repo, repo.id === w.pub.id ? ap.id : aq.id, auth));
  assert.ok(await hasBlob(app, 'actions_artifacts', aq.storagePath));
});

test.run();
