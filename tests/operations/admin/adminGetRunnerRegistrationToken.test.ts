// adminGetRunnerRegistrationToken: Gitea's older GET spelling of adminCreateRunnerRegistrationToken, same token.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, runnerClient } from '../../helpers/actions.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
});
test.after(async () => {
  await app.close();
});

const get = (auth: string | null = asAdmin) => app.client(auth ?? undefined).GET('/admin/runners/registration-token');

test('200: the same token on every call and as the POST spelling answers; it registers runners', async () => {
  const answers = await Promise.all(Array.from({ length: 4 }, () => get()));
  for (const a of answers) {
    assert.is(a.response.status, 200);
    assertSpec('adminGetRunnerRegistrationToken', a);
  }
  const tokens = new Set(answers.map((a) => a.data!.token));
  assert.is(tokens.size, 1);
  const [token] = [...tokens];
  assert.match(token!, /^[0-9a-f]{40}$/);
  const viaPost = await app.client(await app.token(app.admin, ['write:admin'])).POST('/admin/actions/runners/registration-token');
  assert.is(viaPost.data!.token, token);
  const { runner } = await runnerClient(app).register({ name: 'r1', token, labels: ['x'] });
  assert.ok(runner!.uuid);
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  await assertAdminOnly(app, 'adminGetRunnerRegistrationToken', (auth) => get(auth), 'read:user');
});

test.run();
