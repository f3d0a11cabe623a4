// PATCH /repos/{owner}/{repo}/tag_protections/{id}: only the given fields change; administrators only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { setArchived } from '../../helpers/gitFixtures.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { protectTags, tagWorld, type TagWorld } from '../../helpers/tags.js';

let app: TestApp;
let w: TagWorld;

test.before(async () => {
  app = await startApp();
  w = await tagWorld(app);
});
test.after(async () => {
  await app?.close();
});

const edit = (id: number, body: components['schemas']['EditTagProtectionOption'], as?: Actor, path = w.path) =>
  app.client(as?.auth).PATCH('/repos/{owner}/{repo}/tag_protections/{id}', { params: { path: { ...path, id } }, body });

test('200: the pattern alone, then the users alone; the rest stays; updated_at moves', async () => {
  const rule = await protectTags(app, w.path, { name_pattern: 'v*', whitelist_usernames: [w.r.writer.username] }, w.r.owner);
  const renamed = await edit(rule.id, { name_pattern: 'release-*' }, w.r.repoAdmin);
  assert.is(renamed.response.status, 200, JSON.stringify(renamed.error));
  assertSpec('repoEditTagProtection', renamed);
  assert.equal([renamed.data!.name_pattern, renamed.data!.whitelist_usernames], ['release-*', [w.r.writer.username]]);
  const people = await edit(rule.id, { whitelist_usernames: [w.r.owner.username, w.r.reader.username] }, w.r.owner);
  assert.equal(people.data!.name_pattern, 'release-*');
  assert.equal([...people.data!.whitelist_usernames].sort(), [w.r.owner.username, w.r.reader.username].sort());
  assert.ok(people.data!.updated_at >= rule.updated_at);
  const got = await app.client(w.r.owner.auth).GET('/repos/{owner}/{repo}/tag_protections/{id}', { params: { path: { ...w.path, id: rule.id } } });
  assert.equal(got.data, people.data);
});

test('400 empty pattern, 403 another rule\'s pattern, 404 unknown, 422 unknown user or bad pattern', async () => {
  const a = await protectTags(app, w.path, { name_pattern: 'a*', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  await protectTags(app, w.path, { name_pattern: 'b*', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  const cases: Array<[components['schemas']['EditTagProtectionOption'], number]> = [
    [{ name_pattern: ' ' }, 400], [{ name_pattern: 'b*' }, 403], [{ whitelist_usernames: ['no-such-user-y'] }, 422], [{ name_pattern: '/[/' }, 422],
  ];
  for (const [body, status] of cases) {
    const res = await edit(a.id, body, w.r.owner);
    assert.is(res.response.status, status, JSON.stringify(body));
    assertSpec('repoEditTagProtection', res);
  }
  assert.is((await edit(999999, { name_pattern: 'c*' }, w.r.owner)).response.status, 404);
});

test('401 anonymous, 403 writer, 404 outsider on a private repository, 423 archived', async () => {
  const rule = await protectTags(app, w.privPath, { name_pattern: 'p*', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  assert.is((await edit(rule.id, { name_pattern: 'q*' }, undefined, w.privPath)).response.status, 401);
  const writer = await edit(rule.id, { name_pattern: 'q*' }, w.r.writer, w.privPath);
  assert.is(writer.response.status, 403);
  assertSpec('repoEditTagProtection', writer);
  assert.is((await edit(rule.id, { name_pattern: 'q*' }, w.r.outsider, w.privPath)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const archived = await edit(rule.id, { name_pattern: 'q*' }, w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoEditTagProtection', archived);
});

test.run();
