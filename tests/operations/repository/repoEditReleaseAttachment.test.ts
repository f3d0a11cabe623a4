// PATCH /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}: renames an asset (201, as Gitea).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { setArchived } from '../../helpers/gitFixtures.js';
import { newRelease, releaseWorld, uploadAsset, type ReleaseWorld } from '../../helpers/releases.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;

test.before(async () => {
  app = await startApp({ RELEASE_ALLOWED_TYPES: '.txt' });
  w = await releaseWorld(app);
});
test.after(async () => {
  await app?.close();
});

const edit = (id: number, attachment_id: number, name: string | null, as?: Actor, path = w.path) =>
  app.client(as?.auth).PATCH('/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', { params: { path: { ...path, id, attachment_id } }, body: { name } });

test('201: renamed (an empty name keeps it); 422 a type RELEASE_ALLOWED_TYPES does not list; 404 through another release', async () => {
  const rel = await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  const other = await newRelease(app, w.path, { tag_name: 'v2' }, w.r.owner);
  const a = (await uploadAsset(app, w.path, rel.id, { filename: 'a.txt' }, w.r.owner)).data!;
  const res = await edit(rel.id, a.id, 'renamed.txt', w.r.writer);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoEditReleaseAttachment', res);
  assert.equal(res.data, { ...a, name: 'renamed.txt' });
  assert.is((await edit(rel.id, a.id, '', w.r.writer)).data!.name, 'renamed.txt');
  assert.is((await edit(rel.id, a.id, null, w.r.writer)).data!.name, 'renamed.txt');
  const exe = await edit(rel.id, a.id, 'tool.exe', w.r.owner);
  assert.is(exe.response.status, 422);
  assertSpec('repoEditReleaseAttachment', exe);
  assert.is((await edit(other.id, a.id, 'x.txt', w.r.owner)).response.status, 404);
  assert.is((await edit(rel.id, 999999, 'x.txt', w.r.owner)).response.status, 404);
  const listed = await app.client().GET('/repos/{owner}/{repo}/releases/{id}/assets', { params: { path: { ...w.path, id: rel.id } } });
  assert.equal(listed.data!.map((x) => x.name), ['renamed.txt']);
});

test('401 anonymous, 403 reader, 404 private repository for outsiders, 423 archived', async () => {
  const p = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  const a = (await uploadAsset(app, w.privPath, p.id, {}, w.r.owner)).data!;
  assert.is((await edit(p.id, a.id, 'x.txt', undefined, w.privPath)).response.status, 401);
  const reader = await edit(p.id, a.id, 'x.txt', w.r.reader, w.privPath);
  assert.is(reader.response.status, 403);
  assertSpec('repoEditReleaseAttachment', reader);
  assert.is((await edit(p.id, a.id, 'x.txt', w.r.outsider, w.privPath)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const archived = await edit(p.id, a.id, 'x.txt', w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoEditReleaseAttachment', archived);
});

test.run();
