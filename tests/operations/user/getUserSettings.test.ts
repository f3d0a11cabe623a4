// getUserSettings: the signed-in user's settings, with Gitea's defaults for a new user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

test("200: the caller's own settings", async () => {
  const a = await actor(app);
  const res = await app.client(a.auth).GET('/user/settings');
  await expectStatus('getUserSettings', res, 200, 'own');
  assert.equal(res.data, {
    full_name: '', website: '', description: '', location: '', language: '',
    theme: 'gitea-auto', diff_view_style: '', hide_email: false, hide_activity: false,
  });
});

test('401 anonymous; 403 for a token without read:user', async () => {
  await expect401('getUserSettings', (auth) => app.client(auth).GET('/user/settings'));
  assert.is((await app.client().GET('/user/settings')).response.status, 401, 'anonymous');
  const a = await actor(app);
  const wrong = await app.client(await app.token(a, ['read:repository'])).GET('/user/settings');
  await expectStatus('getUserSettings', wrong, 403, 'no user scope');
  assert.is((await app.client(await app.token(a, ['read:user'])).GET('/user/settings')).response.status, 200);
});

test.run();
