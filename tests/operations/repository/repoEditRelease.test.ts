// PATCH /repos/{owner}/{repo}/releases/{id}: empty values keep, publishing a draft makes its tag and
// sends `published`, editing a published release sends `updated`, num_releases follows the draft state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, setArchived } from '../../helpers/gitFixtures.js';
import { eventsOf, feed, opTypes } from '../../helpers/events.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../../helpers/hooks.js';
import { editRelease, newRelease, numReleases, releaseWorld, type Release, type ReleaseWorld } from '../../helpers/releases.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;
let rx: Receiver;
let pub: Release;
let draft: Release;

test.before(async () => {
  app = await startApp(fastHooks, { workers: true });
  w = await releaseWorld(app);
  rx = await receiver();
  await repoHook(app, w.r.owner.auth, w.path, hookBody(rx.url, { events: ['release'] }));
  pub = await newRelease(app, w.path, { tag_name: 'v1', name: 'One', body: 'Notes' }, w.r.owner);
  draft = await newRelease(app, w.path, { tag_name: 'v2', name: 'Two', draft: true, target_commitish: 'main' }, w.r.writer);
});
test.after(async () => {
  await rx?.close();
  await app?.close();
});

const deliveries = (id: number, action: string) => rx.of('release').filter((x) => {
  const p = JSON.parse(x.body);
  return p.release.id === id && p.action === action;
});

test('200: empty and absent values keep theirs; a published release sends `updated`', async () => {
  const res = await editRelease(app, w.path, pub.id, { name: '', body: 'New notes', prerelease: true }, w.r.writer);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoEditRelease', res);
  assert.equal({ name: res.data!.name, body: res.data!.body, prerelease: res.data!.prerelease, tag: res.data!.tag_name, draft: res.data!.draft }, {
    name: 'One', body: 'New notes', prerelease: true, tag: 'v1', draft: false,
  });
  const got = await eventually(() => deliveries(pub.id, 'updated')[0], 'the updated delivery');
  assert.equal(JSON.parse(got.body).release, res.data);
  const read = await app.client(w.r.reader.auth).GET('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...w.path, id: pub.id } } });
  assert.equal(read.data, res.data, 'read after write');
  assert.is(await numReleases(app, w.repo.id), 1);
});

test('200: publishing a draft makes its tag, counts it, records publish_release and sends `published`', async () => {
  assert.is(await disk.rev(w.dir, 'refs/tags/v2'), undefined);
  const before = (await eventsOf(app, w.repo.id)).rows.length;
  const res = await editRelease(app, w.path, draft.id, { draft: false }, w.r.writer);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoEditRelease', res);
  assert.is(res.data!.draft, false);
  assert.type(res.data!.published_at, 'string');
  assert.is(await disk.rev(w.dir, 'refs/tags/v2'), await disk.tip(w.dir, 'main'));
  assert.equal((await eventsOf(app, w.repo.id)).kinds.slice(before), ['create', 'push', 'release/published']);
  assert.is(await numReleases(app, w.repo.id), 2);
  const f = await feed(app, w.path, w.r.owner.auth);
  assert.is(opTypes(f.data)[0], 'publish_release');
  await eventually(() => deliveries(draft.id, 'published')[0], 'the published delivery');
});

test('200: back to a draft: not counted, published_at null, no event; the tag stays', async () => {
  const before = (await eventsOf(app, w.repo.id)).rows.length;
  const res = await editRelease(app, w.path, draft.id, { draft: true }, w.r.owner);
  assert.is(res.response.status, 200);
  assert.is(res.data!.published_at, null);
  assert.is(await numReleases(app, w.repo.id), 1);
  assert.equal((await eventsOf(app, w.repo.id)).kinds.slice(before), []);
  assert.ok(await disk.rev(w.dir, 'refs/tags/v2'));
  const hidden = await editRelease(app, w.path, draft.id, { name: 'x' }, w.r.reader);
  assert.is(hidden.response.status, 403, 'a reader is refused before the lookup');
  const gone = await app.client(w.r.reader.auth).GET('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...w.path, id: draft.id } } });
  assert.is(gone.response.status, 404, 'the draft is hidden from readers again');
});

test('200: a new tag name on a published release makes that tag; 409 for another release\'s tag; 422 for a bad one', async () => {
  const renamed = await editRelease(app, w.path, pub.id, { tag_name: 'v1.1' }, w.r.owner);
  assert.is(renamed.response.status, 200);
  assert.is(renamed.data!.tag_name, 'v1.1');
  assert.is(renamed.data!.html_url, `${w.html}/releases/tag/v1.1`);
  assert.ok(await disk.rev(w.dir, 'refs/tags/v1.1'));
  assert.ok(await disk.rev(w.dir, 'refs/tags/v1'), 'the old tag stays');
  const taken = await editRelease(app, w.path, pub.id, { tag_name: 'V2' }, w.r.owner);
  assert.is(taken.response.status, 409);
  assertSpec('repoEditRelease', taken);
  const bad = await editRelease(app, w.path, pub.id, { tag_name: 'a..b' }, w.r.owner);
  assert.is(bad.response.status, 422);
  assertSpec('repoEditRelease', bad);
});

test('401 anonymous; 404 unknown id or a private repository for outsiders; 423 archived', async () => {
  assert.is((await editRelease(app, w.path, pub.id, { name: 'x' })).response.status, 401);
  assert.is((await editRelease(app, w.path, 999999, { name: 'x' }, w.r.owner)).response.status, 404);
  const other = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.is((await editRelease(app, w.privPath, other.id, { name: 'x' }, w.r.outsider)).response.status, 404);
  assert.is((await editRelease(app, w.path, other.id, { name: 'x' }, w.r.owner)).response.status, 404, 'another repository\'s release');
  await setArchived(app, w.priv, w.r.owner);
  const res = await editRelease(app, w.privPath, other.id, { name: 'x' }, w.r.owner);
  assert.is(res.response.status, 423);
  assertSpec('repoEditRelease', res);
});

test.run();
