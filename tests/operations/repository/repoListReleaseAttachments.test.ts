// GET /repos/{owner}/{repo}/releases/{id}/assets: a release's assets, oldest first, in pages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newRelease, releaseWorld, uploadAsset, type Release, type ReleaseWorld } from '../../helpers/releases.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;
let rel: Release;
let draft: Release;

test.before(async () => {
  app = await startApp();
  w = await releaseWorld(app);
  rel = await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  draft = await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.owner);
  for (const name of ['a.txt', 'b.txt', 'c.txt']) assert.is((await uploadAsset(app, w.path, rel.id, { filename: name }, w.r.owner)).response.status, 201);
  assert.is((await uploadAsset(app, w.path, draft.id, { filename: 'd.txt' }, w.r.owner)).response.status, 201);
});
test.after(async () => {
  await app?.close();
});

const list = (id: number, as?: Actor, query: Record<string, number> = {}, path = w.path) =>
  app.client(as?.auth).GET('/repos/{owner}/{repo}/releases/{id}/assets', { params: { path: { ...path, id }, query } });

test('200: oldest first, for anyone who can read the release; pages', async () => {
  for (const who of [undefined, w.r.reader, w.r.owner]) {
    const res = await list(rel.id, who);
    assert.is(res.response.status, 200);
    assertSpec('repoListReleaseAttachments', res);
    assert.equal(res.data!.map((a) => a.name), ['a.txt', 'b.txt', 'c.txt']);
  }
  const page = await list(rel.id, undefined, { limit: 2, page: 2 });
  assert.equal(page.data!.map((a) => a.name), ['c.txt']);
  assert.is(page.response.headers.get('x-total-count'), '3');
});

test('200 for writers, 404 for readers: a draft\'s assets', async () => {
  assert.equal((await list(draft.id, w.r.writer)).data!.map((a) => a.name), ['d.txt']);
  const res = await list(draft.id, w.r.reader);
  assert.is(res.response.status, 404);
  assertSpec('repoListReleaseAttachments', res);
});

test('404: unknown release, another repository\'s release, a private repository to outsiders', async () => {
  assert.is((await list(999999, w.r.owner)).response.status, 404);
  const p = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.is((await list(p.id, w.r.owner)).response.status, 404);
  assert.is((await list(p.id, w.r.outsider, {}, w.privPath)).response.status, 404);
  assert.equal((await list(p.id, w.r.reader, {}, w.privPath)).data, []);
});

test.run();
