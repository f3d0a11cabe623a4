// orgListHooks: list the hooks, for every role that matters.
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

const call = (auth: string | undefined) =>
  app.client(auth).GET('/orgs/{org}/hooks', { params: { path: { org: w.org } } });

test('200: the hooks of the scope, oldest first, with X-Total-Count; the secret never shown', async () => {
  for (const who of rolesOf(w, 'org').allowed) {
    const r = await call(who.auth);
    assert.is(r.response.status, 200, who.username);
    assertSpec('orgListHooks', r);
    const ids = r.data!.map((h) => h.id);
    assert.ok(ids.includes(w.hooks.org.id));
    assert.not.ok(ids.includes(w.hooks.repo.id), 'another scope\'s hook is not listed');
    assert.is(r.response.headers.get('x-total-count'), String(ids.length));
    assert.not.ok(JSON.stringify(r.data).includes('secret'));
  }
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('orgListHooks', r);
});

test('403: signed in without the right to manage the hooks of an organisation', async () => {
  for (const who of rolesOf(w, 'org').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('orgListHooks', r);
  }
});

test('404: an unknown organisation', async () => {
  const r = await app.client(w.admin.auth).GET('/orgs/{org}/hooks', { params: { path: { org: 'no-such-org-x' } } });
  assert.is(r.response.status, 404);
});

test.run();
