// DELETE /repos/{owner}/{repo}/tag_protections/{id}: administrators remove a rule; the tag is free again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
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

const del = (id: number, as?: Actor, path = w.path) => app.client(as?.auth).DELETE('/repos/{owner}/{repo}/tag_protections/{id}', { params: { path: { ...path, id } } });
const tag = (name: string, as: Actor) => app.client(as.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: w.path }, body: { tag_name: name } });

test('204: the rule goes; a tag it refused can be created; then 404', async () => {
  const rule = await protectTags(app, w.path, { name_pattern: 'v*', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  assert.is((await tag('v1', w.r.writer)).response.status, 422, 'protected');
  const res = await del(rule.id, w.r.repoAdmin);
  assert.is(res.response.status, 204);
  assertSpec('repoDeleteTagProtection', res);
  assert.is((await tag('v1', w.r.writer)).response.status, 201, 'free again');
  const again = await del(rule.id, w.r.owner);
  assert.is(again.response.status, 404);
  assertSpec('repoDeleteTagProtection', again);
});

test('401 anonymous, 403 writer, 404 another repository\'s rule or outsider, 423 archived', async () => {
  const rule = await protectTags(app, w.privPath, { name_pattern: 'p*', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  assert.is((await del(rule.id, undefined, w.privPath)).response.status, 401);
  const writer = await del(rule.id, w.r.writer, w.privPath);
  assert.is(writer.response.status, 403);
  assertSpec('repoDeleteTagProtection', writer);
  assert.is((await del(rule.id, w.r.owner, w.path)).response.status, 404, 'through another repository');
  assert.is((await del(rule.id, w.r.outsider, w.privPath)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const archived = await del(rule.id, w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoDeleteTagProtection', archived);
});

test.run();
