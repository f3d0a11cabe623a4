// POST /repos/{owner}/{repo}/releases: the tag made when missing (not for a draft), the release recorded
// with its publish_release activity and `release` webhook in one transaction, num_releases kept exact.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, setArchived, wrongScope } from '../../helpers/gitFixtures.js';
import { eventsOf, feed, opTypes } from '../../helpers/events.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../../helpers/hooks.js';
import { createRelease, numReleases, releaseWorld, setReleasesUnit, type ReleaseWorld } from '../../helpers/releases.js';
import { messageOf, userRepo } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;
let rx: Receiver;
let mainTip: string;

test.before(async () => {
  app = await startApp(fastHooks, { workers: true });
  w = await releaseWorld(app);
  rx = await receiver();
  await repoHook(app, w.r.owner.auth, w.path, hookBody(rx.url, { events: ['release', 'create'] }));
  mainTip = (await disk.tip(w.dir, 'main'))!;
});
test.after(async () => {
  await rx?.close();
  await app?.close();
});

test('201: a release of a new tag: the tag at the default branch, Gitea\'s JSON, the count, the feed and the webhook', async () => {
  const eventsBefore = (await eventsOf(app, w.repo.id)).rows.length;
  const res = await createRelease(app, w.path, { tag_name: 'v1.0', name: 'First', body: 'Notes' }, w.r.writer);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoCreateRelease', res);
  const rel = res.data!;
  assert.is(await disk.rev(w.dir, 'refs/tags/v1.0'), mainTip, 'a lightweight tag at main');
  assert.equal({ ...rel, author: rel.author.login, created_at: typeof rel.created_at }, {
    id: rel.id, tag_name: 'v1.0', target_commitish: 'main', name: 'First', body: 'Notes',
    url: `${w.api}/releases/${rel.id}`, html_url: `${w.html}/releases/tag/v1.0`,
    tarball_url: `${w.html}/archive/v1.0.tar.gz`, zipball_url: `${w.html}/archive/v1.0.zip`,
    upload_url: `${w.api}/releases/${rel.id}/assets`, draft: false, prerelease: false,
    created_at: 'string', published_at: rel.created_at, author: w.r.writer.username, assets: [],
  });
  assert.ok(rel.author.email.endsWith('@noreply.localhost') || !rel.author.email.includes(w.r.writer.email), 'no e-mail address shown');
  assert.is(await numReleases(app, w.repo.id), 1);
  const kinds = (await eventsOf(app, w.repo.id)).kinds.slice(eventsBefore);
  assert.equal(kinds, ['create', 'push', 'release/published']);
  const f = await feed(app, w.path, w.r.owner.auth);
  assert.equal(opTypes(f.data).slice(0, 2), ['publish_release', 'push_tag']);
  assert.is(f.data![0]!.ref_name, 'v1.0');
  assert.is(f.data![0]!.content, 'First');
  const got = await eventually(() => rx.of('release').find((x) => JSON.parse(x.body).release.id === rel.id), 'the release delivery');
  const payload = JSON.parse(got.body);
  assert.is(got.headers['x-gitea-event'], 'release');
  assert.is(payload.action, 'published');
  assert.equal(payload.release, rel);
  assert.is(payload.repository.full_name, w.repo.full_name);
  assert.is(payload.repository.release_counter, 1);
  assert.is(payload.sender.login, w.r.writer.username);
  await eventually(() => rx.of('create').find((x) => JSON.parse(x.body).ref === 'v1.0'), 'the tag creation delivery');
  const repo = await app.client(w.r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: w.path } });
  assert.is(repo.data!.release_counter, 1);
});

test('201: target_commitish and tag_message make an annotated tag there; an existing tag is used as it is', async () => {
  const devTip = await disk.commit(w.dir, 'dev', { 'dev.txt': 'dev' }, { from: mainTip });
  const a = await createRelease(app, w.path, { tag_name: 'v2.0', target_commitish: 'dev', tag_message: 'Tagged\n', prerelease: true }, w.r.owner);
  assert.is(a.response.status, 201, JSON.stringify(a.error));
  assert.is(await disk.run(w.dir, ['cat-file', '-t', 'refs/tags/v2.0']), 'tag\n');
  assert.is(await disk.rev(w.dir, 'refs/tags/v2.0^{commit}'), devTip);
  assert.is(a.data!.prerelease, true);
  assert.is(a.data!.target_commitish, 'dev');
  const tag = await app.client(w.r.owner.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: w.path }, body: { tag_name: 'old', target: 'dev' } });
  assert.is(tag.response.status, 201);
  const before = (await eventsOf(app, w.repo.id)).rows.length;
  const b = await createRelease(app, w.path, { tag_name: 'old' }, w.r.owner);
  assert.is(b.response.status, 201);
  assert.is(await disk.rev(w.dir, 'refs/tags/old'), devTip, 'the tag did not move');
  assert.equal((await eventsOf(app, w.repo.id)).kinds.slice(before), ['release/published'], 'no tag events');
  assert.is(await numReleases(app, w.repo.id), 3);
});

test('201: a draft: no tag yet, no event, not counted, published_at null', async () => {
  const before = (await eventsOf(app, w.repo.id)).rows.length;
  const res = await createRelease(app, w.path, { tag_name: 'draft-1', draft: true }, w.r.writer);
  assert.is(res.response.status, 201);
  assertSpec('repoCreateRelease', res);
  assert.is(res.data!.draft, true);
  assert.is(res.data!.published_at, null);
  assert.is(await disk.rev(w.dir, 'refs/tags/draft-1'), undefined);
  assert.equal((await eventsOf(app, w.repo.id)).kinds.slice(before), []);
  assert.is(await numReleases(app, w.repo.id), 3);
  const claimed = await app.client(w.r.owner.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: w.path }, body: { tag_name: 'draft-1' } });
  assert.is(claimed.response.status, 409, 'the draft claims its tag name: repoCreateTag answers 409 as Gitea');
});

test('409: a release of that tag exists (any case, drafts included)', async () => {
  for (const tag_name of ['v1.0', 'V1.0', 'draft-1']) {
    const res = await createRelease(app, w.path, { tag_name }, w.r.owner);
    assert.is(res.response.status, 409, tag_name);
    assertSpec('repoCreateRelease', res);
  }
  assert.is(await numReleases(app, w.repo.id), 3);
});

test('404: target_commitish cannot be resolved (no tag left behind); 422: bad tag name, no tag name, empty repository', async () => {
  const missing = await createRelease(app, w.path, { tag_name: 'v9', target_commitish: 'no-such-branch' }, w.r.owner);
  assert.is(missing.response.status, 404);
  assert.is(await disk.rev(w.dir, 'refs/tags/v9'), undefined);
  for (const tag_name of ['bad..name', 'with space', '-x']) {
    const res = await createRelease(app, w.path, { tag_name }, w.r.owner);
    assert.is(res.response.status, 422, tag_name);
    assertSpec('repoCreateRelease', res);
  }
  const none = await createRelease(app, w.path, {} as never, w.r.owner);
  assert.is(none.response.status, 422);
  const empty = await userRepo(app, w.r.owner, { auto_init: false });
  const e = await createRelease(app, { owner: w.r.owner.username, repo: empty.name }, { tag_name: 'v1' }, w.r.owner);
  assert.is(e.response.status, 422);
  assert.match(messageOf(e.error), 'empty');
});

test('401 anonymous, 403 reader and a token without write:repository, 404 private repository for outsiders', async () => {
  assert.is((await createRelease(app, w.path, { tag_name: 'x1' })).response.status, 401);
  const reader = await createRelease(app, w.path, { tag_name: 'x1' }, w.r.reader);
  assert.is(reader.response.status, 403);
  assertSpec('repoCreateRelease', reader);
  const token = await wrongScope(app, w.r.owner, true);
  assert.is((await app.client(token).POST('/repos/{owner}/{repo}/releases', { params: { path: w.path }, body: { tag_name: 'x1' } })).response.status, 403);
  const hidden = await createRelease(app, w.privPath, { tag_name: 'x1' }, w.r.outsider);
  assert.is(hidden.response.status, 404);
  assert.is(await disk.rev(w.dir, 'refs/tags/x1'), undefined);
});

test('404 when the releases unit is disabled; 423 when the repository is archived (site admins included)', async () => {
  await setReleasesUnit(app, w.priv, w.r.owner, false);
  assert.is((await createRelease(app, w.privPath, { tag_name: 'u1' }, w.r.owner)).response.status, 404);
  await setReleasesUnit(app, w.priv, w.r.owner, true);
  await setArchived(app, w.priv, w.r.owner);
  for (const who of [w.r.owner, w.r.admin]) {
    const res = await createRelease(app, w.privPath, { tag_name: 'u1' }, who);
    assert.is(res.response.status, 423);
    assertSpec('repoCreateRelease', res);
  }
  await setArchived(app, w.priv, w.r.owner, false);
  assert.is((await createRelease(app, w.privPath, { tag_name: 'u1' }, w.r.admin)).response.status, 201);
});

test.run();
