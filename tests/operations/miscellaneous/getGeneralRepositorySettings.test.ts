import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;

test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

const settings = (auth?: string) => app.client(auth).GET('/settings/repository');

test('200: what anvil serves (git over HTTP, stars, time tracking) and does not (mirrors, migrations, LFS)', async () => {
  const r = await settings();
  assert.is(r.response.status, 200);
  assertSpec('getGeneralRepositorySettings', r);
  assert.equal(r.data, {
    http_git_disabled: false, lfs_disabled: true, migrations_disabled: true, mirrors_disabled: true, stars_disabled: false, time_tracking_disabled: false,
  });
  const u = await actor(app);
  assert.is((await settings(await app.token(u, ['read:misc']))).response.status, 200, 'any scope');
});

test('401: wrong credentials', async () => {
  const r = await settings('token 0123456789012345678901234567890123456789');
  assert.is(r.response.status, 401);
  assertSpec('getGeneralRepositorySettings', r);
});

test.run();
