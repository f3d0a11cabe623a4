// getAdminRunners (spec 2): every runner, with the disabled filter, total_count and pages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, registerRunner, type TestRunner } from '../../helpers/actions.js';

let app: TestApp;
let asAdmin: string;
let runners: TestRunner[];
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
  runners = [];
  for (let i = 0; i < 7; i++) runners.push(await registerRunner(app, i % 2 ? ['ubuntu-latest', 'linux:host'] : ['arm64']));
  const write = await app.token(app.admin, ['write:admin']);
  for (const r of runners.slice(0, 3)) {
    await app.client(write).PATCH('/admin/actions/runners/{runner_id}', { params: { path: { runner_id: String(r.id) } }, body: { disabled: true } });
  }
});
test.after(async () => {
  await app.close();
});

const list = (query: { disabled?: boolean; page?: number; limit?: number } = {}, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).GET('/admin/actions/runners', { params: { query } });

test('200: every runner with its labels (names without their schema, by position), online, not busy', async () => {
  const res = await list();
  assert.is(res.response.status, 200);
  assertSpec('getAdminRunners', res);
  assert.is(res.data!.total_count, 7);
  assert.equal(res.data!.runners.map((r) => r.id), runners.map((r) => r.id));
  const second = res.data!.runners[1]!;
  assert.equal(second, {
    id: runners[1]!.id, name: runners[1]!.name, status: 'online', busy: false, disabled: true, ephemeral: false,
    labels: [{ id: 0, name: 'ubuntu-latest', type: 'custom' }, { id: 1, name: 'linux', type: 'custom' }],
  });
});

test('200: disabled=true and disabled=false', async () => {
  const on = await list({ disabled: false });
  assertSpec('getAdminRunners', on);
  assert.equal(on.data!.runners.map((r) => r.id), runners.slice(3).map((r) => r.id));
  assert.is(on.data!.total_count, 4);
  const off = await list({ disabled: true });
  assert.equal(off.data!.runners.map((r) => r.id), runners.slice(0, 3).map((r) => r.id));
});

test('200: pages; the total is in the body and the headers', async () => {
  const p2 = await list({ page: 2, limit: 3 });
  assertSpec('getAdminRunners', p2);
  assert.equal(p2.data!.runners.map((r) => r.id), runners.slice(3, 6).map((r) => r.id));
  assert.is(p2.data!.total_count, 7);
  assert.is(p2.response.headers.get('x-total-count'), '7');
});

test('422: disabled that is not a boolean', async () => {
  const res = await app.client(asAdmin).GET('/admin/actions/runners', { params: { query: { disabled: 'maybe' as never } } });
  assert.is(res.response.status, 422);
  assertSpec('getAdminRunners', res);
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  await assertAdminOnly(app, 'getAdminRunners', (auth) => list({}, auth), 'read:user');
});

test.run();
