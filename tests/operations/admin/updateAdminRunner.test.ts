// updateAdminRunner (spec 6): only `disabled` changes, and it is required.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, registerRunner, type TestRunner } from '../../helpers/actions.js';

let app: TestApp;
let asAdmin: string;
let runner: TestRunner;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin']);
  runner = await registerRunner(app);
});
test.after(async () => {
  await app.close();
});

const patch = (id: string, body: unknown, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).PATCH('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: id } }, body: body as never });

test('200: disabled and enabled again, answered as stored; other fields are ignored', async () => {
  const off = await patch(String(runner.id), { disabled: true, name: 'renamed' });
  assert.is(off.response.status, 200);
  assertSpec('updateAdminRunner', off);
  assert.is(off.data!.disabled, true);
  assert.is(off.data!.name, runner.name);
  const listed = await app.client(asAdmin).GET('/admin/actions/runners', { params: { query: { disabled: true } } });
  assert.equal(listed.data!.runners.map((r) => r.id), [runner.id]);
  const on = await patch(String(runner.id), { disabled: false });
  assert.is(on.data!.disabled, false);
});

test('422: disabled missing, null or not a boolean', async () => {
  for (const body of [{}, { disabled: null }, { disabled: 'yes' }]) {
    const res = await patch(String(runner.id), body);
    assert.is(res.response.status, 422, JSON.stringify(body));
    assertSpec('updateAdminRunner', res);
  }
});

test('404: unknown and non-numeric ids', async () => {
  for (const id of ['9999999', 'abc']) {
    const res = await patch(id, { disabled: true });
    assert.is(res.response.status, 404, id);
    assertSpec('updateAdminRunner', res);
  }
});

test('400: a body that is not JSON', async () => {
  const res = await fetch(`${app.url}/api/v1/admin/actions/runners/${runner.id}`, { method: 'PATCH', headers: { Authorization: asAdmin, 'Content-Type': 'application/json' }, body: '{"disabled":' });
  assert.is(res.status, 400);
});

test('401, 403: anonymous, a plain user, a token without write:admin', async () => {
  await assertAdminOnly(app, 'updateAdminRunner', (auth) => patch(String(runner.id), { disabled: true }, auth), 'read:admin');
  assert.is((await app.client(asAdmin).GET('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: String(runner.id) } } })).data!.disabled, false);
});

test.run();
