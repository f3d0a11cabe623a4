// GET /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}: one asset of that release.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newRelease, releaseWorld, uploadAsset, type ReleaseWorld } from '../../helpers/releases.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;

test.before(async () => {
  app = await startApp();
  w = await releaseWorld(app);
});
test.after(async () => {
  await app?.close();
});

const get = (id: number, attachment_id: number, as?: Actor, path = w.path) =>
  app.client(as?.auth).GET('/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', { params: { path: { ...path, id, attachment_id } } });

test('200 to readers; 404 through another release, for a draft\'s asset to readers, unknown ids, private repositories to outsiders', async () => {
  const rel = await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  const other = await newRelease(app, w.path, { tag_name: 'v2' }, w.r.owner);
  const draft = await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.owner);
  const a = (await uploadAsset(app, w.path, rel.id, { filename: 'a.txt' }, w.r.owner)).data!;
  const d = (await uploadAsset(app, w.path, draft.id, { filename: 'd.txt' }, w.r.owner)).data!;
  for (const who of [undefined, w.r.reader]) {
    const res = await get(rel.id, a.id, who);
    assert.is(res.response.status, 200);
    assertSpec('repoGetReleaseAttachment', res);
    assert.equal(res.data, a);
  }
  assert.is((await get(other.id, a.id, w.r.owner)).response.status, 404);
  assert.is((await get(draft.id, d.id, w.r.reader)).response.status, 404);
  assert.equal((await get(draft.id, d.id, w.r.writer)).data, d);
  const missing = await get(rel.id, 999999, w.r.owner);
  assert.is(missing.response.status, 404);
  assertSpec('repoGetReleaseAttachment', missing);
  const p = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  const pa = (await uploadAsset(app, w.privPath, p.id, {}, w.r.owner)).data!;
  assert.is((await get(p.id, pa.id, w.r.outsider, w.privPath)).response.status, 404);
  assert.is((await get(p.id, pa.id, w.r.owner)).response.status, 404, 'through another repository');
  assert.is((await get(p.id, pa.id, w.r.reader, w.privPath)).response.status, 200);
});

test.run();
