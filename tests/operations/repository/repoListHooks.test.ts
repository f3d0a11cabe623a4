// repoListHooks: list the hooks, for every role that matters.
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
  app.client(auth).GET('/repos/{owner}/{repo}/hooks', { params: { path: { ...w.path } } });

test('200: the hooks of the scope, oldest first, with X-Total-Count; the secret never shown', async () => {
  for (const who of rolesOf(w, 'repo').allowed) {
    const r = await call(who.auth);
    assert.is(r.response.status, 200, who.username);
    assertSpec('repoListHooks', r);
    const ids = r.data!.map((h) => h.id);
    assert.ok(ids.includes(w.hooks.repo.id));
    assert.not.ok(ids.includes(w.hooks.otherRepo.id), 'another scope\'s hook is not listed');
    assert.is(r.response.headers.get('x-total-count'), String(ids.length));
    assert.not.ok(JSON.stringify(r.data).includes('secret'));
  }
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('repoListHooks', r);
});

test('403: signed in without the right to manage the hooks of a repository', async () => {
  for (const who of rolesOf(w, 'repo').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('repoListHooks', r);
  }
});

test('404: a private repository the caller cannot see', async () => {
  for (const who of rolesOf(w, 'repo').hidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 404);
    assertSpec('repoListHooks', r);
  }
});

test.run();
