// getAdminRunner (spec 4): any runner by id; unknown and non-numeric ids are 404.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import { actionRunners } from '../../../src/db/schema/index.js';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, registerRunner, type TestRunner } from '../../helpers/actions.js';

let app: TestApp;
let asAdmin: string;
let runner: TestRunner;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
  runner = await registerRunner(app, ['runner_to_be_deleted', 'linux']);
});
test.after(async () => {
  await app.close();
});

const get = (id: string, auth: string | null = asAdmin) => app.client(auth ?? undefined).GET('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: id } } });

test('200: the runner', async () => {
  const res = await get(String(runner.id));
  assert.is(res.response.status, 200);
  assertSpec('getAdminRunner', res);
  assert.equal(res.data, {
    id: runner.id, name: runner.name, status: 'online', busy: false, disabled: false, ephemeral: false,
    labels: [{ id: 0, name: 'runner_to_be_deleted', type: 'custom' }, { id: 1, name: 'linux', type: 'custom' }],
  });
});

test('200: offline once it has not been heard from for a minute', async () => {
  await app.services.deps.db.update(actionRunners).set({ lastOnline: new Date(Date.now() - 61_000) }).where(eq(actionRunners.id, runner.id));
  assert.is((await get(String(runner.id))).data!.status, 'offline');
  await runner.client.fetchTask({});
  assert.is((await get(String(runner.id))).data!.status, 'online', 'a poll brings it back');
});

test('404: an unknown id, a non-numeric one, zero', async () => {
  for (const id of [String(runner.id + 1000), 'abc', '0', '-1', '99999999999999999999']) {
    const res = await get(id);
    assert.is(res.response.status, 404, id);
    assertSpec('getAdminRunner', res);
  }
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  await assertAdminOnly(app, 'getAdminRunner', (auth) => get(String(runner.id), auth), 'read:user');
});

test.run();
