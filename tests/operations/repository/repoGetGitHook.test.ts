// GET /repos/{owner}/{repo}/hooks/git/{id}: one hook by name. Disabled by default (403, as Gitea with
// DISABLE_GIT_HOOKS); with git hooks enabled, for site administrators and repository administrators given
// allow_git_hook (tests/helpers/gitHooks.ts); 404 for a name git does not run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { gitHookCall, gitHookEnabledMatrix, gitHookMatrix, startHooksApp } from '../../helpers/gitHooks.js';

let app: TestApp;
let hooksApp: TestApp;

test.before(async () => {
  [app, hooksApp] = await Promise.all([startApp(), startHooksApp()]);
});
test.after(async () => {
  await Promise.all([app?.close(), hooksApp?.close()]);
});

test('disabled (the default): 403 for administrators and other readers, 401 anonymous, 404 outsiders of a private repository', async () => {
  await gitHookMatrix(app, 'repoGetGitHook', (path, auth) => gitHookCall(app, 'GET', '/pre-receive', path, auth));
});

test('enabled: 200 for a site admin and a repository admin with allow_git_hook; 403 other administrators, writers, readers', async () => {
  await gitHookEnabledMatrix(hooksApp, 'repoGetGitHook', 200, (path, auth) => gitHookCall(hooksApp, 'GET', '/post-receive', path, auth));
});

test('enabled: the hook as written; 404 for an unknown name', async () => {
  const w = await gitHookEnabledMatrix(hooksApp, 'repoGetGitHook', 200, (path, auth) => gitHookCall(hooksApp, 'GET', '/update', path, auth));
  assert.equal(JSON.parse((await gitHookCall(hooksApp, 'GET', '/pre-receive', w.path, w.r.admin.auth)).body), { name: 'pre-receive', is_active: false });
  await gitHookCall(hooksApp, 'PATCH', '/pre-receive', w.path, w.r.admin.auth, { content: '#!/bin/sh\necho hi\n' });
  assert.equal(JSON.parse((await gitHookCall(hooksApp, 'GET', '/pre-receive', w.path, w.r.repoAdmin.auth)).body),
    { name: 'pre-receive', is_active: true, content: '#!/bin/sh\necho hi\n' });
  for (const name of ['nope', 'pre-commit', 'pre-receive.d', 'PRE-RECEIVE']) {
    const res = await gitHookCall(hooksApp, 'GET', `/${name}`, w.path, w.r.admin.auth);
    assert.is(res.status, 404, name);
  }
});

test.run();
