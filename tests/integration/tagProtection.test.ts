// Tag protection enforced on every path that creates or deletes tags: git pushes over HTTP (the pre-receive
// hook: create, move, delete), the tag API (create, delete) and releases that create their tag.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { disk } from '../helpers/gitFixtures.js';
import { gitWorkspace } from '../helpers/events.js';
import { createRelease } from '../helpers/releases.js';
import { assertSpec } from '../helpers/spec-check.js';
import { protectTags, tagWorld, type TagWorld } from '../helpers/tags.js';

let app: TestApp;
let w: TagWorld;
let ws: ReturnType<typeof gitWorkspace>;

test.before(async () => {
  app = await startApp();
  w = await tagWorld(app);
  ws = gitWorkspace(app);
  await protectTags(app, w.path, { name_pattern: 'v*', whitelist_usernames: [w.r.writer.username] }, w.r.owner);
  await protectTags(app, w.path, { name_pattern: '/^rc-\\d+$/', whitelist_usernames: [w.r.writer.username] }, w.r.owner);
});
test.after(async () => {
  ws.close();
  await app.close();
});

test('push: an unlisted pusher (the owner) cannot create a protected tag (glob or regexp), can create others; the listed writer can create, move and delete', async () => {
  const owner = await ws.clone(ws.remote(w.r.owner, w.path.owner, w.path.repo));
  for (const name of ['v1.0', 'rc-12']) {
    await ws.must(['tag', name], owner);
    const denied = await ws.run(['push', 'origin', `refs/tags/${name}`], owner);
    assert.is.not(denied.code, 0, name);
    assert.match(denied.stderr, `tag ${name} is protected`);
    assert.is(await disk.rev(w.dir, `refs/tags/${name}`), undefined, `${name} not created`);
  }
  await ws.must(['tag', 'rc-x'], owner);
  assert.is((await ws.run(['push', 'origin', 'refs/tags/rc-x'], owner)).code, 0, 'rc-x does not match /^rc-\\d+$/');
  const writer = await ws.clone(ws.remote(w.r.writer, w.path.owner, w.path.repo));
  await ws.must(['tag', 'v2.0'], writer);
  assert.is((await ws.run(['push', 'origin', 'refs/tags/v2.0'], writer)).code, 0, 'listed');
  // The owner may neither move nor delete it.
  await ws.commit(owner, 'o.txt', 'o\n', 'by the owner');
  await ws.must(['tag', '-f', 'v2.0'], owner);
  assert.is.not((await ws.run(['push', '-f', 'origin', 'refs/tags/v2.0'], owner)).code, 0, 'move refused');
  assert.is.not((await ws.run(['push', 'origin', ':refs/tags/v2.0'], owner)).code, 0, 'delete refused');
  assert.ok(await disk.rev(w.dir, 'refs/tags/v2.0'));
  assert.is((await ws.run(['push', 'origin', ':refs/tags/v2.0'], writer)).code, 0, 'the listed writer deletes it');
  assert.is(await disk.rev(w.dir, 'refs/tags/v2.0'), undefined);
});

test('API: POST /tags answers 422 for an unlisted caller, 201 for a listed one; DELETE likewise', async () => {
  const made = (as: typeof w.r.owner, tag_name: string) => app.client(as.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: w.path }, body: { tag_name } });
  const refused = await made(w.r.owner, 'v3.0');
  assert.is(refused.response.status, 422);
  assertSpec('repoCreateTag', refused);
  assert.match((refused.error as { message: string }).message, 'user not allowed to create protected tag');
  assert.is(await disk.rev(w.dir, 'refs/tags/v3.0'), undefined);
  assert.is((await made(w.r.writer, 'v3.0')).response.status, 201);
  const del = await app.client(w.r.owner.auth).DELETE('/repos/{owner}/{repo}/tags/{tag}', { params: { path: { ...w.path, tag: 'v3.0' } } });
  assert.is(del.response.status, 422);
});

test('releases: a release that would create a protected tag is refused (422) for an unlisted caller, nothing written; on an existing tag it is fine', async () => {
  const refused = await createRelease(app, w.path, { tag_name: 'v4.0', name: 'four' }, w.r.owner);
  assert.is(refused.response.status, 422);
  assertSpec('repoCreateRelease', refused);
  assert.is(await disk.rev(w.dir, 'refs/tags/v4.0'), undefined);
  const listed = await app.client(w.r.owner.auth).GET('/repos/{owner}/{repo}/releases', { params: { path: w.path } });
  assert.not.ok(listed.data!.some((r) => r.tag_name === 'v4.0'));
  assert.is((await createRelease(app, w.path, { tag_name: 'v4.0' }, w.r.writer)).response.status, 201, 'listed');
  // A draft makes no tag; publishing it does, and is refused likewise.
  const draft = await createRelease(app, w.path, { tag_name: 'v5.0', draft: true }, w.r.owner);
  assert.is(draft.response.status, 201);
  const publish = await app.client(w.r.owner.auth).PATCH('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...w.path, id: draft.data!.id } }, body: { draft: false } });
  assert.is(publish.response.status, 422);
});

test.run();
