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

const settings = (auth?: string) => app.client(auth).GET('/settings/ui');

test('200: Gitea\'s reactions, emojis and theme, for anonymous callers and any credential', async () => {
  const r = await settings();
  assert.is(r.response.status, 200);
  assertSpec('getGeneralUISettings', r);
  assert.equal(r.data!.allowed_reactions, ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']);
  assert.is(r.data!.default_theme, 'gitea-auto');
  assert.ok(r.data!.custom_emojis.includes('gitea'));
  const u = await actor(app);
  assert.is((await settings(await app.token(u, ['read:misc']))).response.status, 200, 'any scope');
});

test('401: wrong credentials', async () => {
  const r = await settings('token 0123456789012345678901234567890123456789');
  assert.is(r.response.status, 401);
  assertSpec('getGeneralUISettings', r);
});

test.run();
