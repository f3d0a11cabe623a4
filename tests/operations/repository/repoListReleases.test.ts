// GET /repos/{owner}/{repo}/releases: newest first, drafts for writers of releases only, the draft and
// pre-release filters, pages with X-Total-Count and Link, assets shown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newRelease, releaseWorld, setReleasesUnit, uploadAsset, type Release, type ReleaseWorld } from '../../helpers/releases.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;
let v1: Release;
let v2: Release;
let d1: Release;

test.before(async () => {
  app = await startApp();
  w = await releaseWorld(app);
  v1 = await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  v2 = await newRelease(app, w.path, { tag_name: 'v2', prerelease: true }, w.r.owner);
  d1 = await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.writer);
  const up = await uploadAsset(app, w.path, v1.id, { filename: 'bin.txt' }, w.r.owner);
  assert.is(up.response.status, 201, JSON.stringify(up.error));
});
test.after(async () => {
  await app?.close();
});

const list = (as: Actor | undefined, query: Record<string, unknown> = {}, path = w.path) =>
  app.client(as?.auth).GET('/repos/{owner}/{repo}/releases', { params: { path, query } });
const tags = (rows: Release[] | undefined) => (rows ?? []).map((r) => r.tag_name);

test('200: newest first; drafts only for writers, owners and site admins', async () => {
  for (const who of [undefined, w.r.outsider, w.r.reader]) {
    const res = await list(who);
    assert.is(res.response.status, 200);
    assertSpec('repoListReleases', res);
    assert.equal(tags(res.data), ['v2', 'v1'], who?.username ?? 'anonymous');
    assert.is(res.response.headers.get('x-total-count'), '2');
  }
  for (const who of [w.r.writer, w.r.owner, w.r.admin]) assert.equal(tags((await list(who)).data), ['d1', 'v2', 'v1'], who.username);
  const withAsset = (await list(undefined)).data!.find((r) => r.id === v1.id)!;
  assert.equal(withAsset.assets.map((a) => a.name), ['bin.txt']);
  assert.equal((await list(w.r.owner)).data!.find((r) => r.id === d1.id)!.published_at, null);
  assert.equal((await list(w.r.owner)).data!.find((r) => r.id === v2.id)!.prerelease, true);
});

test('200: the draft and pre-release filters', async () => {
  assert.equal(tags((await list(w.r.writer, { draft: true })).data), ['d1']);
  assert.equal(tags((await list(w.r.reader, { draft: true })).data), [], 'readers see no drafts even when asking');
  assert.equal(tags((await list(w.r.writer, { draft: false })).data), ['v2', 'v1']);
  assert.equal(tags((await list(undefined, { 'pre-release': true })).data), ['v2']);
  assert.equal(tags((await list(w.r.writer, { 'pre-release': false })).data), ['d1', 'v1']);
});

test('200: pages', async () => {
  const res = await list(w.r.owner, { limit: 1, page: 2 });
  assert.equal(tags(res.data), ['v2']);
  assert.is(res.response.headers.get('x-total-count'), '3');
  assert.match(res.response.headers.get('link') ?? '', 'rel="next"');
});

test('404: a private repository to anonymous callers and outsiders, a disabled releases unit; 422 bad filter', async () => {
  await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.equal(tags((await list(w.r.reader, {}, w.privPath)).data), ['p1']);
  for (const who of [undefined, w.r.outsider]) {
    const res = await list(who, {}, w.privPath);
    assert.is(res.response.status, 404);
    assertSpec('repoListReleases', res);
  }
  await setReleasesUnit(app, w.priv, w.r.owner, false);
  assert.is((await list(w.r.owner, {}, w.privPath)).response.status, 404);
  await setReleasesUnit(app, w.priv, w.r.owner, true);
  const bad = await list(undefined, { draft: 'maybe' });
  assert.is(bad.response.status, 422);
});

test.run();
