// downloadArtifact: the artifact's zip, byte for byte; 404 once expired.
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

const zip = (repo: Repository, id: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip', { params: { path: { owner: repo.owner!.login, repo: repo.name, artifact_id: id } }, parseAs: 'arrayBuffer' });

test('200: the stored zip as application/zip', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
  const a = await seedArtifact(app, s!, { name: 'big one', bytes });
  const res = await zip(w.pub, a.id);
  assert.is(res.response.status, 200);
  assert.is(res.response.headers.get('content-type'), 'application/zip');
  assert.match(res.response.headers.get('content-disposition') ?? '', 'big%20one.zip');
  assert.ok(Buffer.from(res.data as ArrayBuffer).equals(bytes));
});

test('404: expired, unknown, another repository\'s', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const expired = await seedArtifact(app, s!, { status: 'expired' });
  const [o] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  const others = await seedArtifact(app, o!);
  for (const id of [expired.id, 987_654_321, others.id]) {
    const res = await zip(w.pub, id);
    assert.is(res.response.status, 404, `artifact ${id}`);
    assertSpec('downloadArtifact', res as never);
  }
});

test('roles', async () => {
  const [p] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const [q] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  const ap = await seedArtifact(app, p!);
  const aq = await seedArtifact(app, q!);
  await assertActionsReadRoles(app, w, 'downloadArtifact', (repo, auth) => zip(repo, repo.id === w.pub.id ? ap.id : aq.id, auth));
});

test.run();
