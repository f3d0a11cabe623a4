// orgEditHook: edit a hook, for every role that matters.
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

const call = (auth: string | undefined, id = w.hooks.org.id, body: { active?: boolean; events?: string[]; config?: Record<string, string> } = { active: false, events: ['issues'] }) =>
  app.client(auth).PATCH('/orgs/{org}/hooks/{id}', { params: { path: { org: w.org, id } }, body });

test('200: only what is named changes', async () => {
  for (const who of rolesOf(w, 'org').allowed) {
    const r = await call(who.auth, w.hooks.org.id, { active: false, events: ['issues'] });
    assert.is(r.response.status, 200, who.username);
    assertSpec('orgEditHook', r);
    assert.is(r.data!.active, false);
    assert.ok(r.data!.events.includes('issue_comment'));
    assert.is(r.data!.config.url, deadUrl);
  }
});

test('404: an unknown id, and a hook of another scope; 422: a url that is not http(s)', async () => {
  for (const id of [987654, w.hooks.repo.id]) {
    const r = await call(w.orgOwner.auth, id);
    assert.is(r.response.status, 404, String(id));
  }
  const bad = await call(w.orgOwner.auth, w.hooks.org.id, { config: { url: 'ftp://example.com/' } });
  assert.is(bad.response.status, 422);
  assertSpec('orgEditHook', bad);
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('orgEditHook', r);
});

test('403: signed in without the right to manage the hooks of an organisation', async () => {
  for (const who of rolesOf(w, 'org').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('orgEditHook', r);
  }
});

test('404: an unknown organisation', async () => {
  const r = await app.client(w.admin.auth).PATCH('/orgs/{org}/hooks/{id}', { params: { path: { org: 'no-such-org-x', id: 1 } }, body: {} });
  assert.is(r.response.status, 404);
});

test.run();
