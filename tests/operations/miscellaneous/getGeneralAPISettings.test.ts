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

const settings = (auth?: string) => app.client(auth).GET('/settings/api');

test('200: the page sizes this server uses, for anonymous callers and any credential', async () => {
  const r = await settings();
  assert.is(r.response.status, 200);
  assertSpec('getGeneralAPISettings', r);
  assert.equal(r.data, { default_git_trees_per_page: 1000, default_max_blob_size: 10485760, default_paging_num: 30, max_response_items: 50 });
  const u = await actor(app);
  assert.is((await settings(await app.token(u, ['read:misc']))).response.status, 200);
});

test('200: what the environment configures, and what lists then answer', async () => {
  const custom = await startApp({ DEFAULT_PAGE_SIZE: '7', MAX_PAGE_SIZE: '9' });
  try {
    const r = await custom.client().GET('/settings/api');
    assert.is(r.data!.default_paging_num, 7);
    assert.is(r.data!.max_response_items, 9);
    const admin = await custom.token(custom.admin, ['all']);
    for (let i = 0; i < 10; i++) await custom.client(admin).POST('/orgs', { body: { username: `org${i}` } });
    assert.is((await custom.client().GET('/orgs')).data!.length, 7, 'the default page');
    assert.is((await custom.client().GET('/orgs', { params: { query: { limit: 50 } } })).data!.length, 9, 'the largest page');
  } finally {
    await custom.close();
  }
});

test('401: wrong credentials', async () => {
  const r = await settings('token 0123456789012345678901234567890123456789');
  assert.is(r.response.status, 401);
  assertSpec('getGeneralAPISettings', r);
});

test.run();
