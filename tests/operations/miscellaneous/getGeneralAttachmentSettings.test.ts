import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultAllowedTypes } from '../../../src/config.js';
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

const settings = (auth?: string) => app.client(auth).GET('/settings/attachment');

test('200: Gitea\'s defaults (max_size in MiB), for anonymous callers too', async () => {
  const r = await settings();
  assert.is(r.response.status, 200);
  assertSpec('getGeneralAttachmentSettings', r);
  assert.equal(r.data, { enabled: true, allowed_types: defaultAllowedTypes, max_size: 4, max_files: 5 });
  assert.ok(defaultAllowedTypes.split(',').includes('.zip'));
});

test('200: any valid credential, whatever its scopes', async () => {
  const u = await actor(app);
  assert.is((await settings(u.auth)).response.status, 200);
  const scopeless = await app.token(u, ['read:misc']);
  assert.is((await settings(scopeless)).response.status, 200);
  assert.is((await settings(u.basic)).response.status, 200);
});

test('200: what the environment configures', async () => {
  const custom = await startApp({
    ATTACHMENT_ENABLED: 'false',
    ATTACHMENT_ALLOWED_TYPES: 'image/*,.txt',
    ATTACHMENT_MAX_SIZE: '25',
    ATTACHMENT_MAX_FILES: '2',
  });
  try {
    const r = await custom.client().GET('/settings/attachment');
    assert.is(r.response.status, 200, 'the settings stay readable when attachments are off');
    assert.equal(r.data, { enabled: false, allowed_types: 'image/*,.txt', max_size: 25, max_files: 2 });
  } finally {
    await custom.close();
  }
});

test('401: wrong credentials', async () => {
  const r = await settings('token 0123456789012345678901234567890123456789');
  assert.is(r.response.status, 401);
  assertSpec('getGeneralAttachmentSettings', r);
});

test.run();
