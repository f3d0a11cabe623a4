// GET /repos/{owner}/{repo}/tag_protections: every rule of the repository, oldest first; administrators only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { wrongScope } from '../../helpers/gitFixtures.js';
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

const list = (as?: Actor | string, path = w.path) =>
  app.client(typeof as === 'string' ? as : as?.auth).GET('/repos/{owner}/{repo}/tag_protections', { params: { path } });

test('200: empty, then the rules oldest first, only this repository\'s', async () => {
  const none = await list(w.r.owner);
  assert.is(none.response.status, 200);
  assert.equal(none.data, []);
  const a = await protectTags(app, w.path, { name_pattern: 'v*', whitelist_usernames: [w.r.writer.username] }, w.r.owner);
  const b = await protectTags(app, w.path, { name_pattern: '/^rc/', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  await protectTags(app, w.privPath, { name_pattern: 'v*', whitelist_usernames: [w.r.owner.username] }, w.r.owner);
  const res = await list(w.r.repoAdmin);
  assert.is(res.response.status, 200);
  assertSpec('repoListTagProtection', res);
  assert.equal(res.data, [a, b]);
});

test('401 anonymous, 403 writer, reader or token without the scope, 404 private repository for outsiders', async () => {
  assert.is((await list()).response.status, 401);
  for (const who of [w.r.writer, w.r.reader]) {
    const res = await list(who);
    assert.is(res.response.status, 403);
    assertSpec('repoListTagProtection', res);
  }
  assert.is((await list(await wrongScope(app, w.r.owner, false))).response.status, 403);
  assert.is((await list(w.r.outsider, w.privPath)).response.status, 404);
});

test.run();
