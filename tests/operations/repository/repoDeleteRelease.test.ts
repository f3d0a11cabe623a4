// DELETE /repos/{owner}/{repo}/releases/{id}: the release and its assets go (files included), the tag
// stays; a published release sends `deleted` and leaves the count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { storedPath } from '../../helpers/attachments.js';
import { disk, setArchived } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../../helpers/hooks.js';
import { newRelease, numReleases, releaseWorld, uploadAsset, type ReleaseWorld } from '../../helpers/releases.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;
let rx: Receiver;

test.before(async () => {
  app = await startApp(fastHooks, { workers: true });
  w = await releaseWorld(app);
  rx = await receiver();
  await repoHook(app, w.r.owner.auth, w.path, hookBody(rx.url, { events: ['release'] }));
});
test.after(async () => {
  await rx?.close();
  await app?.close();
});

const del = (id: number, as?: Actor, path = w.path) =>
  app.client(as?.auth).DELETE('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...path, id } } });

test('204: a published release with an asset: row, asset and file gone, tag kept, count down, `deleted` sent', async () => {
  const rel = await newRelease(app, w.path, { tag_name: 'v1', name: 'One' }, w.r.owner);
  const up = await uploadAsset(app, w.path, rel.id, { filename: 'a.txt' }, w.r.owner);
  assert.is(up.response.status, 201);
  const file = storedPath(app, up.data!.uuid);
  assert.ok(existsSync(file));
  assert.is(await numReleases(app, w.repo.id), 1);
  const res = await del(rel.id, w.r.writer);
  assert.is(res.response.status, 204);
  assertSpec('repoDeleteRelease', res);
  assert.is((await app.client(w.r.owner.auth).GET('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...w.path, id: rel.id } } })).response.status, 404);
  assert.not.ok(existsSync(file), 'the asset file is deleted');
  assert.is((await fetch(up.data!.browser_download_url, { headers: { Authorization: w.r.owner.auth } })).status, 404);
  assert.ok(await disk.rev(w.dir, 'refs/tags/v1'), 'the tag stays');
  assert.is(await numReleases(app, w.repo.id), 0);
  const got = await eventually(() => rx.of('release').find((x) => JSON.parse(x.body).action === 'deleted'), 'the deleted delivery');
  const payload = JSON.parse(got.body);
  assert.is(payload.release.id, rel.id);
  assert.equal(payload.release.assets.map((a: { name: string }) => a.name), ['a.txt'], 'the release as it was');
  assert.is(payload.sender.login, w.r.writer.username);
  const again = await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  assert.is(again.tag_name, 'v1', 'the tag can have a release again');
});

test('204: a draft: no event, count unchanged', async () => {
  const d = await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.owner);
  const before = (await eventsOf(app, w.repo.id)).rows.length;
  const count = await numReleases(app, w.repo.id);
  assert.is((await del(d.id, w.r.owner)).response.status, 204);
  assert.equal((await eventsOf(app, w.repo.id)).kinds.slice(before), []);
  assert.is(await numReleases(app, w.repo.id), count);
});

test('401 anonymous, 403 reader, 404 unknown id and private repository for outsiders, 423 archived', async () => {
  const rel = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.is((await del(rel.id, undefined, w.privPath)).response.status, 401);
  const reader = await del(rel.id, w.r.reader, w.privPath);
  assert.is(reader.response.status, 403);
  assertSpec('repoDeleteRelease', reader);
  assert.is((await del(rel.id, w.r.outsider, w.privPath)).response.status, 404);
  assert.is((await del(999999, w.r.owner, w.privPath)).response.status, 404);
  assert.is((await del(rel.id, w.r.owner)).response.status, 404, 'another repository\'s release');
  await setArchived(app, w.priv, w.r.owner);
  const archived = await del(rel.id, w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoDeleteRelease', archived);
  await setArchived(app, w.priv, w.r.owner, false);
  assert.is((await del(rel.id, w.r.admin, w.privPath)).response.status, 204);
});

test.run();
