// DELETE /repos/{owner}/{repo}/tags/{tag}: code writers delete a tag no published release is attached to,
// unless a tag protection rule keeps them from it; the `delete` event is recorded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, setArchived, wrongScope } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import { newRelease } from '../../helpers/releases.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { diskTag, protectTags, tagWorld, type TagWorld } from '../../helpers/tags.js';

let app: TestApp;
let w: TagWorld;

test.before(async () => {
  app = await startApp();
  w = await tagWorld(app);
});
test.after(async () => {
  await app?.close();
});

const del = (tag: string, as?: Actor, path = w.path) => app.client(as?.auth).DELETE('/repos/{owner}/{repo}/tags/{tag}', { params: { path: { ...path, tag } } });

test('204: a writer deletes lightweight and annotated tags (names with slashes); the delete event is recorded; then 404', async () => {
  await diskTag(w.dir, 'gone/v1', w.tip);
  await diskTag(w.dir, 'gone-annotated', w.tip, 'note');
  for (const name of ['gone/v1', 'gone-annotated']) {
    const res = await del(name, w.r.writer);
    assert.is(res.response.status, 204, `${name}: ${JSON.stringify(res.error)}`);
    assertSpec('repoDeleteTag', res);
    assert.is(await disk.rev(w.dir, `refs/tags/${name}`), undefined, `${name} gone from git`);
    assert.is((await del(name, w.r.writer)).response.status, 404, 'already gone');
  }
  const { rows } = await eventsOf(app, w.repo.id);
  assert.ok(rows.some((e) => e.type === 'delete' && JSON.stringify(e).includes('gone/v1')), 'delete event');
  const listed = await app.client().GET('/repos/{owner}/{repo}/tags', { params: { path: w.path } });
  assert.not.ok(listed.data!.some((t) => t.name.startsWith('gone')));
});

test('409: a published release is attached; a draft\'s name does not keep its tag', async () => {
  await newRelease(app, w.path, { tag_name: 'rel-1' }, w.r.owner);
  const res = await del('rel-1', w.r.owner);
  assert.is(res.response.status, 409);
  assertSpec('repoDeleteTag', res);
  assert.match((res.error as { message: string }).message, 'a tag attached to a release cannot be deleted directly');
  assert.ok(await disk.rev(w.dir, 'refs/tags/rel-1'));
});

test('422: a protected tag for someone not on the allow-list (repository owner included); the listed user deletes it', async () => {
  await diskTag(w.dir, 'v9.0', w.tip);
  await protectTags(app, w.path, { name_pattern: 'v*', whitelist_usernames: [w.r.writer.username] }, w.r.owner);
  const owner = await del('v9.0', w.r.owner);
  assert.is(owner.response.status, 422);
  assertSpec('repoDeleteTag', owner);
  assert.match((owner.error as { message: string }).message, 'user not allowed to delete protected tag');
  assert.ok(await disk.rev(w.dir, 'refs/tags/v9.0'), 'still there');
  assert.is((await del('v9.0', w.r.writer)).response.status, 204);
});

test('401 anonymous, 403 reader or token without write:repository, 404 private repository for outsiders or unknown, 423 archived', async () => {
  await diskTag(w.dir, 'keep', w.tip);
  assert.is((await del('keep')).response.status, 401);
  const reader = await del('keep', w.r.reader);
  assert.is(reader.response.status, 403);
  assertSpec('repoDeleteTag', reader);
  const scoped = await app.client(await wrongScope(app, w.r.owner, true)).DELETE('/repos/{owner}/{repo}/tags/{tag}', { params: { path: { ...w.path, tag: 'keep' } } });
  assert.is(scoped.response.status, 403);
  assert.is((await del('keep', w.r.outsider, w.privPath)).response.status, 404);
  assert.is((await del('never', w.r.owner)).response.status, 404);
  assert.ok(await disk.rev(w.dir, 'refs/tags/keep'));
  await setArchived(app, w.priv, w.r.owner);
  const archived = await del('keep', w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoDeleteTag', archived);
});

test.run();
