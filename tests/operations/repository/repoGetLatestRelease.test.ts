// GET /repos/{owner}/{repo}/releases/latest: the newest release that is neither a draft nor a pre-release.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newRelease, releaseWorld, setReleasesUnit, type ReleaseWorld } from '../../helpers/releases.js';
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

const latest = (as?: Actor, path = w.path) => app.client(as?.auth).GET('/repos/{owner}/{repo}/releases/latest', { params: { path } });

test('404: no release yet, or only drafts and pre-releases', async () => {
  const none = await latest();
  assert.is(none.response.status, 404);
  assertSpec('repoGetLatestRelease', none);
  await newRelease(app, w.path, { tag_name: 'pre', prerelease: true }, w.r.owner);
  await newRelease(app, w.path, { tag_name: 'draft', draft: true }, w.r.owner);
  assert.is((await latest(w.r.owner)).response.status, 404);
});

test('200: the newest published full release, whoever asks', async () => {
  await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  const v2 = await newRelease(app, w.path, { tag_name: 'v2' }, w.r.owner);
  await newRelease(app, w.path, { tag_name: 'v3-rc', prerelease: true }, w.r.owner);
  await newRelease(app, w.path, { tag_name: 'v3', draft: true }, w.r.owner);
  for (const who of [undefined, w.r.reader, w.r.owner]) {
    const res = await latest(who);
    assert.is(res.response.status, 200);
    assertSpec('repoGetLatestRelease', res);
    assert.equal(res.data, v2);
  }
});

test('404: a private repository to outsiders, a disabled releases unit', async () => {
  await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.is((await latest(w.r.reader, w.privPath)).data!.tag_name, 'p1');
  assert.is((await latest(w.r.outsider, w.privPath)).response.status, 404);
  await setReleasesUnit(app, w.priv, w.r.owner, false);
  assert.is((await latest(w.r.owner, w.privPath)).response.status, 404);
});

test.run();
