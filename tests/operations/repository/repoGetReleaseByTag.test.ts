// GET /repos/{owner}/{repo}/releases/tags/{tag}: by tag name (any case), a draft only to writers.
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

test.before(async () => {
  app = await startApp();
  w = await releaseWorld(app);
  pub = await newRelease(app, w.path, { tag_name: 'release/v1.0' }, w.r.owner);
  draft = await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.writer);
  const t = await app.client(w.r.owner.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: w.path }, body: { tag_name: 'bare' } });
  assert.is(t.response.status, 201);
});
test.after(async () => {
  await app?.close();
});

const get = (tag: string, as?: Actor, path = w.path) =>
  app.client(as?.auth).GET('/repos/{owner}/{repo}/releases/tags/{tag}', { params: { path: { ...path, tag } } });

test('200: by tag name, with a slash, in any case', async () => {
  for (const tag of ['release/v1.0', 'RELEASE/V1.0']) {
    const res = await get(tag);
    assert.is(res.response.status, 200, tag);
    assertSpec('repoGetReleaseByTag', res);
    assert.equal(res.data, pub);
  }
  assert.is(pub.html_url, `${w.html}/releases/tag/release/v1.0`);
});

test('200 for writers, 404 for readers: a draft', async () => {
  assert.equal((await get('d1', w.r.writer)).data, draft);
  const res = await get('d1', w.r.reader);
  assert.is(res.response.status, 404);
  assertSpec('repoGetReleaseByTag', res);
});

test('404: a tag without a release, an unknown tag, a private repository to outsiders', async () => {
  assert.is((await get('bare', w.r.owner)).response.status, 404);
  assert.is((await get('nope', w.r.owner)).response.status, 404);
  await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.is((await get('p1', w.r.outsider, w.privPath)).response.status, 404);
  assert.is((await get('p1', undefined, w.privPath)).response.status, 404);
  assert.is((await get('p1', w.r.reader, w.privPath)).response.status, 200);
});

test.run();
