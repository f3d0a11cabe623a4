// POST /repos/{owner}/{repo}/tag_protections: repository administrators add a rule (glob or /regexp/) with an
// allow-list of users and teams. Enforcement is in tests/integration/tagProtection.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { setArchived, wrongScope } from '../../helpers/gitFixtures.js';
import { orgRepo, orgWorld, pathOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { createTagProtection, tagWorld, type TagWorld } from '../../helpers/tags.js';

let app: TestApp;
let w: TagWorld;

test.before(async () => {
  app = await startApp();
  w = await tagWorld(app);
});
test.after(async () => {
  await app?.close();
});

test('201: a glob with users (names as stored), listed and readable; a repository admin may; a regexp rule', async () => {
  const res = await createTagProtection(app, w.path, { name_pattern: ' v* ', whitelist_usernames: [w.r.writer.username.toUpperCase()] }, w.r.owner);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoCreateTagProtection', res);
  assert.equal([res.data!.name_pattern, res.data!.whitelist_usernames, res.data!.whitelist_teams], ['v*', [w.r.writer.username], []]);
  const got = await app.client(w.r.owner.auth).GET('/repos/{owner}/{repo}/tag_protections/{id}', { params: { path: { ...w.path, id: res.data!.id } } });
  assert.equal(got.data, res.data);
  const re = await createTagProtection(app, w.path, { name_pattern: '/^release-\\d+$/', whitelist_usernames: [w.r.owner.username] }, w.r.repoAdmin);
  assert.is(re.response.status, 201, JSON.stringify(re.error));
});

test('teams on an organization\'s repository; unknown team 422; teams ignored on a user\'s repository', async () => {
  const o = await orgWorld(app);
  const repo = await orgRepo(app, o.name, o.owner);
  const ok = await createTagProtection(app, pathOf(repo), { name_pattern: 'x*', whitelist_teams: ['creators'] }, o.owner);
  assert.is(ok.response.status, 201, JSON.stringify(ok.error));
  assert.equal(ok.data!.whitelist_teams, ['Creators']);
  const bad = await createTagProtection(app, pathOf(repo), { name_pattern: 'y*', whitelist_teams: ['nobody'] }, o.owner);
  assert.is(bad.response.status, 422);
  assertSpec('repoCreateTagProtection', bad);
  const userRepoTeams = await createTagProtection(app, w.path, { name_pattern: 't*', whitelist_teams: ['creators'] }, w.r.owner);
  assert.is(userRepoTeams.response.status, 201);
  assert.equal(userRepoTeams.data!.whitelist_teams, []);
});

test('400 empty pattern or allow-lists, 403 duplicate pattern, 422 unknown user or bad pattern', async () => {
  for (const body of [{ name_pattern: '  ', whitelist_usernames: [w.r.owner.username] }, { name_pattern: 'z*' }, { name_pattern: 'z*', whitelist_usernames: [] }]) {
    const res = await createTagProtection(app, w.path, body, w.r.owner);
    assert.is(res.response.status, 400, JSON.stringify(body));
    assertSpec('repoCreateTagProtection', res);
  }
  await createTagProtection(app, w.path, { name_pattern: 'dup', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  const dup = await createTagProtection(app, w.path, { name_pattern: 'dup', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  assert.is(dup.response.status, 403);
  assertSpec('repoCreateTagProtection', dup);
  for (const body of [
    { name_pattern: 'q*', whitelist_usernames: ['no-such-user-x'] },
    { name_pattern: '/(unclosed/', whitelist_usernames: [w.r.owner.username] },
    { name_pattern: '/(?=look)/', whitelist_usernames: [w.r.owner.username] },
    { name_pattern: 'a[b', whitelist_usernames: [w.r.owner.username] },
  ]) {
    const res = await createTagProtection(app, w.path, body, w.r.owner);
    assert.is(res.response.status, 422, JSON.stringify(body));
    assertSpec('repoCreateTagProtection', res);
  }
});

test('401 anonymous, 403 writer or token without write:repository, 404 private repository for outsiders, 423 archived', async () => {
  const body = { name_pattern: 'r*', whitelist_usernames: [w.r.owner.username] };
  assert.is((await createTagProtection(app, w.path, body)).response.status, 401);
  const writer = await createTagProtection(app, w.path, body, w.r.writer);
  assert.is(writer.response.status, 403);
  assertSpec('repoCreateTagProtection', writer);
  const scoped = await app.client(await wrongScope(app, w.r.owner, true)).POST('/repos/{owner}/{repo}/tag_protections', { params: { path: w.path }, body });
  assert.is(scoped.response.status, 403);
  assert.is((await createTagProtection(app, w.privPath, body, w.r.outsider)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const archived = await createTagProtection(app, w.privPath, body, w.r.owner);
  assert.is(archived.response.status, 423);
  assertSpec('repoCreateTagProtection', archived);
});

test.run();
