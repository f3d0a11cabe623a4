// repoCreateHook: create a hook, for every role that matters.
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

const call = (auth: string | undefined, body = hookBody(deadUrl, { name: 'made' })) =>
  app.client(auth).POST('/repos/{owner}/{repo}/hooks', { params: { path: { ...w.path } }, body });

test('201: the created hook, as stored (defaults: active false, events push); the secret never returned', async () => {
  for (const who of rolesOf(w, 'repo').allowed) {
    const r = await call(who.auth, { type: 'gitea', config: { url: deadUrl, content_type: 'json', secret: 'hidden-value' }, name: 'n' });
    assert.is(r.response.status, 201, who.username);
    assertSpec('repoCreateHook', r);
    assert.equal([r.data!.type, r.data!.active, r.data!.events, r.data!.config.url, r.data!.name], ['gitea', false, ['push'], deadUrl, 'n']);
    assert.not.ok(JSON.stringify(r.data).includes('hidden-value'));
  }
});

test('422 and 400: Gitea\'s checks', async () => {
  const who = w.owner;
  const missing = await call(who.auth, { type: 'gitea', config: { url: deadUrl } } as never);
  assert.is(missing.response.status, 422);
  assertSpec('repoCreateHook', missing);
  const slack = await call(who.auth, { type: 'slack', config: { url: deadUrl, content_type: 'json' } });
  assert.is(slack.response.status, 422);
  assert.is((slack.error as { message: string }).message, 'Missing config option: channel');
  const channel = await call(who.auth, { type: 'slack', config: { url: deadUrl, content_type: 'json', channel: 'two words' } });
  assert.is(channel.response.status, 400);
  assertSpec('repoCreateHook', channel);
  const glob = await call(who.auth, { type: 'gitea', config: { url: deadUrl, content_type: 'json' }, branch_filter: '{open' });
  assert.is(glob.response.status, 422);
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('repoCreateHook', r);
});

test('403: signed in without the right to manage the hooks of a repository', async () => {
  for (const who of rolesOf(w, 'repo').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('repoCreateHook', r);
  }
});

test('404: a private repository the caller cannot see', async () => {
  for (const who of rolesOf(w, 'repo').hidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 404);
    assertSpec('repoCreateHook', r);
  }
});

test.run();
