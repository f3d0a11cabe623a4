// GET /repos/{owner}/{repo}/releases/{id}: the release, a draft only to writers of releases.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newRelease, releaseWorld, type Release, type ReleaseWorld } from '../../helpers/releases.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;
let pub: Release;
let draft: Release;
let priv: Release;

test.before(async () => {
  app = await startApp();
  w = await releaseWorld(app);
  pub = await newRelease(app, w.path, { tag_name: 'v1', name: 'One' }, w.r.owner);
  draft = await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.writer);
  priv = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
});
test.after(async () => {
  await app?.close();
});

const get = (id: number, as?: Actor, path = w.path) =>
  app.client(as?.auth).GET('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...path, id } } });

test('200: a published release to anyone who can read the repository', async () => {
  for (const who of [undefined, w.r.outsider, w.r.reader]) {
    const res = await get(pub.id, who);
    assert.is(res.response.status, 200);
    assertSpec('repoGetRelease', res);
    assert.equal(res.data, pub);
  }
});

test('200 for writers, 404 for readers: a draft', async () => {
  for (const who of [w.r.writer, w.r.owner, w.r.admin]) assert.equal((await get(draft.id, who)).data, draft, who.username);
  for (const who of [undefined, w.r.reader]) {
    const res = await get(draft.id, who);
    assert.is(res.response.status, 404);
    assertSpec('repoGetRelease', res);
  }
});

test('404: unknown id, another repository\'s release, a private repository to outsiders; 422 non-numeric id', async () => {
  assert.is((await get(999999, w.r.owner)).response.status, 404);
  assert.is((await get(priv.id, w.r.owner)).response.status, 404);
  assert.is((await get(priv.id, w.r.outsider, w.privPath)).response.status, 404);
  assert.is((await get(priv.id, w.r.reader, w.privPath)).response.status, 200);
  const bad = await fetch(`${w.api}/releases/abc`);
  assert.is(bad.status, 422);
});

test.run();
