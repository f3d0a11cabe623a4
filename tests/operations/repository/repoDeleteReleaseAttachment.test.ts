// DELETE /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}: the asset and its file go.
import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { storedPath } from '../../helpers/attachments.js';
import { setArchived } from '../../helpers/gitFixtures.js';
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

const del = (id: number, attachment_id: number, as?: Actor, path = w.path) =>
  app.client(as?.auth).DELETE('/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', { params: { path: { ...path, id, attachment_id } } });

test('204: row and file gone, the download 404; 404 through another release and the second time', async () => {
  const rel = await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  const other = await newRelease(app, w.path, { tag_name: 'v2' }, w.r.owner);
  const a = (await uploadAsset(app, w.path, rel.id, { filename: 'a.txt' }, w.r.owner)).data!;
  assert.is((await del(other.id, a.id, w.r.owner)).response.status, 404);
  const res = await del(rel.id, a.id, w.r.writer);
  assert.is(res.response.status, 204);
  assertSpec('repoDeleteReleaseAttachment', res);
  assert.not.ok(existsSync(storedPath(app, a.uuid)));
  assert.is((await fetch(a.browser_download_url)).status, 404);
  assert.equal((await app.client().GET('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...w.path, id: rel.id } } })).data!.assets, []);
  assert.is((await del(rel.id, a.id, w.r.owner)).response.status, 404);
});

test('401 anonymous, 403 reader, 404 private repository for outsiders, 423 archived', async () => {
  const p = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  const a = (await uploadAsset(app, w.privPath, p.id, {}, w.r.owner)).data!;
  assert.is((await del(p.id, a.id, undefined, w.privPath)).response.status, 401);
  const reader = await del(p.id, a.id, w.r.reader, w.privPath);
  assert.is(reader.response.status, 403);
  assertSpec('repoDeleteReleaseAttachment', reader);
  assert.is((await del(p.id, a.id, w.r.outsider, w.privPath)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const archived = await del(p.id, a.id, w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoDeleteReleaseAttachment', archived);
  assert.ok(existsSync(storedPath(app, a.uuid)));
});

test.run();
