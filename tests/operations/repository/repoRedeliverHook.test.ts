// repoRedeliverHook: redeliver a payload, for every role that matters.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { deadUrl, hookWorld, rolesOf, type HookWorld } from '../../helpers/hookRoles.js';
import { hookBody } from '../../helpers/hooks.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: HookWorld;
test.before(async () => {
  app = await startApp();
  w = await hookWorld(app);
});
test.after(async () => {
  await app?.close();
});
void hookBody;
void deadUrl;

const call = (auth: string | undefined, id = w.hooks.repo.id, delivery_id = w.deliveries.repo) =>
  app.client(auth).POST('/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}/attempts', { params: { path: { ...w.path, id, delivery_id } } });

test('202: a new delivery of the same payload, queued', async () => {
  for (const who of rolesOf(w, 'repo').allowed) {
    const r = await call(who.auth);
    assert.is(r.response.status, 202, who.username);
    assertSpec('repoRedeliverHook', r);
    assert.not.equal(r.data!.id, w.deliveries.repo);
    assert.is(r.data!.state, 'pending');
  }
});

test('404: an unknown delivery, and a delivery of another hook', async () => {
  for (const d of [987654, w.deliveries.org]) {
    const r = await call(w.owner.auth, w.hooks.repo.id, d);
    assert.is(r.response.status, 404, String(d));
    assertSpec('repoRedeliverHook', r);
  }
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('repoRedeliverHook', r);
});

test('403: signed in without the right to manage the hooks of a repository', async () => {
  for (const who of rolesOf(w, 'repo').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('repoRedeliverHook', r);
  }
});

test('404: a private repository the caller cannot see', async () => {
  for (const who of rolesOf(w, 'repo').hidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 404);
    assertSpec('repoRedeliverHook', r);
  }
});

test.run();
