// adminCreateRunnerRegistrationToken (spec 3): the latest active global token, made only when there is none.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRunnerTokens } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, runnerClient } from '../../helpers/actions.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin']);
});
test.after(async () => {
  await app.close();
});

const create = (auth: string | null = asAdmin) => app.client(auth ?? undefined).POST('/admin/actions/runners/registration-token');

test('200: the same token on every call, also when many ask at once; it registers runners', async () => {
  const answers = await Promise.all(Array.from({ length: 8 }, () => create()));
  for (const a of answers) {
    assert.is(a.response.status, 200);
    assertSpec('adminCreateRunnerRegistrationToken', a);
  }
  const tokens = new Set(answers.map((a) => a.data!.token));
  assert.is(tokens.size, 1);
  const [token] = [...tokens];
  assert.match(token!, /^[0-9a-f]{40}$/);
  assert.is((await create()).data!.token, token);
  const { runner } = await runnerClient(app).register({ name: 'r1', token, labels: ['x'] });
  assert.ok(runner!.uuid && runner!.token);
  assert.is((await create()).data!.token, token, 'registering does not use it up');
});

test('200: a new token once the latest was deactivated; the old one no longer registers', async () => {
  const old = (await create()).data!.token;
  await app.services.deps.db.update(actionRunnerTokens).set({ isActive: false }).where(eq(actionRunnerTokens.token, old));
  const fresh = (await create()).data!.token;
  assert.is.not(fresh, old);
  try {
    await runnerClient(app).register({ name: 'late', token: old, labels: [] });
    assert.unreachable('an invalidated token registered a runner');
  } catch (err) {
    assert.match((err as Error).message, /invalidated/);
  }
});

test('401, 403: anonymous, a plain user, a token without write:admin', async () => {
  await assertAdminOnly(app, 'adminCreateRunnerRegistrationToken', (auth) => create(auth), 'read:admin');
});

test.run();
