// GET /repos/{owner}/{repo}/hooks/git: the three hooks git runs on a push, never the webhook hooks/{id}. Disabled by
// default (403, as Gitea with DISABLE_GIT_HOOKS); with git hooks enabled, for site administrators and repository
// administrators given allow_git_hook (tests/helpers/gitHooks.ts).
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
  await gitHookMatrix(app, 'repoListGitHooks', (path, auth) => gitHookCall(app, 'GET', '', path, auth));
});

test('enabled: 200 for a site admin and a repository admin with allow_git_hook; 403 other administrators, writers, readers', async () => {
  await gitHookEnabledMatrix(hooksApp, 'repoListGitHooks', 200, (path, auth) => gitHookCall(hooksApp, 'GET', '', path, auth));
});

test('enabled: pre-receive, update and post-receive in order, inactive until written; content only when active', async () => {
  const w = await gitHookEnabledMatrix(hooksApp, 'repoListGitHooks', 200, (path, auth) => gitHookCall(hooksApp, 'GET', '', path, auth));
  const fresh = await gitHookCall(hooksApp, 'GET', '', w.path, w.r.admin.auth);
  assert.equal(JSON.parse(fresh.body), [
    { name: 'pre-receive', is_active: false }, { name: 'update', is_active: false }, { name: 'post-receive', is_active: false },
  ]);
  const edit = await gitHookCall(hooksApp, 'PATCH', '/update', w.path, w.r.admin.auth, { content: '#!/bin/sh\nexit 0\n' });
  assert.is(edit.status, 200, edit.body);
  const after = JSON.parse((await gitHookCall(hooksApp, 'GET', '', w.path, w.r.admin.auth)).body) as unknown[];
  assert.equal(after, [
    { name: 'pre-receive', is_active: false }, { name: 'update', is_active: true, content: '#!/bin/sh\nexit 0\n' }, { name: 'post-receive', is_active: false },
  ]);
});

test.run();
