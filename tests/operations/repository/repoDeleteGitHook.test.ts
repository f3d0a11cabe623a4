// DELETE /repos/{owner}/{repo}/hooks/git/{id}: removes a hook's script. Disabled by default (403, as Gitea with
// DISABLE_GIT_HOOKS); with git hooks enabled, for site administrators and repository administrators given
// allow_git_hook (tests/helpers/gitHooks.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { gitHookCall, gitHookEnabledMatrix, gitHookMatrix, hookFilesIn, startHooksApp } from '../../helpers/gitHooks.js';

let app: TestApp;
let hooksApp: TestApp;

test.before(async () => {
  [app, hooksApp] = await Promise.all([startApp(), startHooksApp()]);
});
test.after(async () => {
  await Promise.all([app?.close(), hooksApp?.close()]);
});

test('disabled (the default): 403 for administrators and other readers, 401 anonymous, 404 outsiders of a private repository', async () => {
  await gitHookMatrix(app, 'repoDeleteGitHook', (path, auth) => gitHookCall(app, 'DELETE', '/pre-receive', path, auth));
});

test('enabled: 204 for a site admin and a repository admin with allow_git_hook; 403 other administrators, writers, readers', async () => {
  await gitHookEnabledMatrix(hooksApp, 'repoDeleteGitHook', 204, (path, auth) => gitHookCall(hooksApp, 'DELETE', '/pre-receive', path, auth));
});

test('enabled: the file goes, the others stay; deleting an absent hook is 204 too; 404 unknown name', async () => {
  const w = await gitHookEnabledMatrix(hooksApp, 'repoDeleteGitHook', 204, (path, auth) => gitHookCall(hooksApp, 'DELETE', '/update', path, auth));
  for (const name of ['pre-receive', 'post-receive']) {
    const res = await gitHookCall(hooksApp, 'PATCH', `/${name}`, w.path, w.r.admin.auth, { content: '#!/bin/sh\nexit 0\n' });
    assert.is(res.status, 200, res.body);
  }
  assert.equal(hookFilesIn(w.dir), ['pre-receive', 'post-receive']);
  const res = await gitHookCall(hooksApp, 'DELETE', '/pre-receive', w.path, w.r.repoAdmin.auth);
  assert.is(res.status, 204, res.body);
  assert.is(res.body, '');
  assert.equal(hookFilesIn(w.dir), ['post-receive']);
  assert.equal(JSON.parse((await gitHookCall(hooksApp, 'GET', '/pre-receive', w.path, w.r.admin.auth)).body), { name: 'pre-receive', is_active: false });
  assert.is((await gitHookCall(hooksApp, 'DELETE', '/pre-receive', w.path, w.r.admin.auth)).status, 204);
  assert.is((await gitHookCall(hooksApp, 'DELETE', '/pre-commit', w.path, w.r.admin.auth)).status, 404);
});

test.run();
