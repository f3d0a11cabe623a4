// DELETE /repos/{owner}/{repo}/releases/tags/{tag}: the release of that tag goes, the tag stays.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, setArchived } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import { newRelease, numReleases, releaseWorld, type ReleaseWorld } from '../../helpers/releases.js';
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

const del = (tag: string, as?: Actor, path = w.path) =>
  app.client(as?.auth).DELETE('/repos/{owner}/{repo}/releases/tags/{tag}', { params: { path: { ...path, tag } } });

test('204: the release of the tag (any case) goes, the tag stays, the count and the event follow', async () => {
  const rel = await newRelease(app, w.path, { tag_name: 'v1.0' }, w.r.owner);
  const before = (await eventsOf(app, w.repo.id)).rows.length;
  const res = await del('V1.0', w.r.writer);
  assert.is(res.response.status, 204);
  assertSpec('repoDeleteReleaseByTag', res);
  assert.ok(await disk.rev(w.dir, 'refs/tags/v1.0'));
  assert.is(await numReleases(app, w.repo.id), 0);
  assert.equal((await eventsOf(app, w.repo.id)).kinds.slice(before), ['release/deleted']);
  const gone = await app.client(w.r.owner.auth).GET('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...w.path, id: rel.id } } });
  assert.is(gone.response.status, 404);
  const tags = await app.client(w.r.owner.auth).GET('/repos/{owner}/{repo}/tags', { params: { path: w.path } });
  assert.ok(tags.data!.some((t) => t.name === 'v1.0'), 'the tag is still listed');
});

test('404: a tag without a release; a draft for readers (403 first, as a write)', async () => {
  assert.is((await del('v1.0', w.r.owner)).response.status, 404);
  await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.owner);
  assert.is((await del('d1', w.r.reader)).response.status, 403);
  assert.is((await del('d1', w.r.writer)).response.status, 204);
});

test('401 anonymous, 404 private repository for outsiders, 423 archived', async () => {
  await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.is((await del('p1', undefined, w.privPath)).response.status, 401);
  assert.is((await del('p1', w.r.outsider, w.privPath)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const res = await del('p1', w.r.owner, w.privPath);
  assert.is(res.response.status, 423);
  assertSpec('repoDeleteReleaseByTag', res);
});

test.run();
