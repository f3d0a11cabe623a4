// deleteAdminRunner (spec 5): the runner goes; its credentials stop working; later reads are 404.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Code, ConnectError } from '@connectrpc/connect';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, registerRunner } from '../../helpers/actions.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin']);
});
test.after(async () => {
  await app.close();
});

const del = (id: string, auth: string | null = asAdmin) => app.client(auth ?? undefined).DELETE('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: id } } });

test('204: deleted; GET is 404 and the runner can no longer call', async () => {
  const runner = await registerRunner(app);
  const res = await del(String(runner.id));
  assert.is(res.response.status, 204);
  assertSpec('deleteAdminRunner', res);
  assert.is((await app.client(asAdmin).GET('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: String(runner.id) } } })).response.status, 404);
  try {
    await runner.client.fetchTask({});
    assert.unreachable('a deleted runner fetched');
  } catch (err) {
    assert.is((err as ConnectError).code, Code.Unauthenticated);
  }
  assert.is((await del(String(runner.id))).response.status, 404, 'twice: 404');
});

test('404: unknown and non-numeric ids', async () => {
  for (const id of ['424242', 'x1']) {
    const res = await del(id);
    assert.is(res.response.status, 404, id);
    assertSpec('deleteAdminRunner', res);
  }
});

test('401, 403: anonymous, a plain user, a token without write:admin; the runner stays', async () => {
  const runner = await registerRunner(app);
  await assertAdminOnly(app, 'deleteAdminRunner', (auth) => del(String(runner.id), auth), 'read:admin');
  assert.is((await app.client(asAdmin).GET('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: String(runner.id) } } })).response.status, 200);
});

test.run();
