// GET /repos/{owner}/{repo}/tag_protections/{id}: one rule; administrators only; another repository's id is 404.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { protectTags, tagWorld, type TagProtection, type TagWorld } from '../../helpers/tags.js';

let app: TestApp;
let w: TagWorld;
let rule: TagProtection;
let privRule: TagProtection;

test.before(async () => {
  app = await startApp();
  w = await tagWorld(app);
  rule = await protectTags(app, w.path, { name_pattern: 'v*', whitelist_usernames: [w.r.writer.username] }, w.r.owner);
  privRule = await protectTags(app, w.privPath, { name_pattern: 'v*', whitelist_usernames: [w.r.writer.username] }, w.r.owner);
});
test.after(async () => {
  await app?.close();
});

const get = (id: number, as?: Actor, path = w.path) => app.client(as?.auth).GET('/repos/{owner}/{repo}/tag_protections/{id}', { params: { path: { ...path, id } } });

test('200 for the owner and a repository admin', async () => {
  for (const who of [w.r.owner, w.r.repoAdmin]) {
    const res = await get(rule.id, who);
    assert.is(res.response.status, 200);
    assertSpec('repoGetTagProtection', res);
    assert.equal(res.data, rule);
  }
});

test('401 anonymous, 403 writer, 404 unknown id, another repository\'s rule, private repository for outsiders', async () => {
  assert.is((await get(rule.id)).response.status, 401);
  const writer = await get(rule.id, w.r.writer);
  assert.is(writer.response.status, 403);
  assertSpec('repoGetTagProtection', writer);
  for (const [id, path] of [[999999, w.path], [privRule.id, w.path]] as const) {
    const res = await get(id, w.r.owner, path);
    assert.is(res.response.status, 404);
    assertSpec('repoGetTagProtection', res);
  }
  assert.is((await get(privRule.id, w.r.outsider, w.privPath)).response.status, 404);
});

test.run();
