// PATCH /repos/{owner}/{repo}/hooks/git/{id}: writes a hook's script. Disabled by default (403, nothing written, as
// Gitea with DISABLE_GIT_HOOKS); with git hooks enabled, for site administrators and repository administrators
// given allow_git_hook (tests/helpers/gitHooks.ts). Pushes running it: tests/integration/gitHooks.test.ts.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

const script = '#!/bin/sh\nexit 0\n';

test('disabled (the default): 403 for administrators and other readers, 401 anonymous, 404 outsiders; no file written', async () => {
  await gitHookMatrix(app, 'repoEditGitHook', (path, auth) => gitHookCall(app, 'PATCH', '/pre-receive', path, auth, { content: script }));
});

test('enabled: 200 for a site admin and a repository admin with allow_git_hook; 403 other administrators, writers, readers', async () => {
  await gitHookEnabledMatrix(hooksApp, 'repoEditGitHook', 200, (path, auth) => gitHookCall(hooksApp, 'PATCH', '/post-receive', path, auth, { content: script }));
});

test('enabled: written executable in hooks/<name>.d/<name>, carriage returns dropped; blank content removes it; 404 unknown name', async () => {
  const w = await gitHookEnabledMatrix(hooksApp, 'repoEditGitHook', 200, (path, auth) => gitHookCall(hooksApp, 'PATCH', '/update', path, auth, { content: script }));
  const res = await gitHookCall(hooksApp, 'PATCH', '/pre-receive', w.path, w.r.admin.auth, { content: '#!/bin/sh\r\necho one\r\n' });
  assert.is(res.status, 200, res.body);
  assert.equal(JSON.parse(res.body), { name: 'pre-receive', is_active: true, content: '#!/bin/sh\necho one\n' });
  const file = join(w.dir, 'hooks', 'pre-receive.d', 'pre-receive');
  assert.is(readFileSync(file, 'utf8'), '#!/bin/sh\necho one\n');
  assert.is(statSync(file).mode & 0o777, 0o755);
  assert.equal(hookFilesIn(w.dir), ['pre-receive', 'update']);
  const again = await gitHookCall(hooksApp, 'PATCH', '/pre-receive', w.path, w.r.admin.auth, { content: '#!/bin/sh\necho two\n' });
  assert.equal(JSON.parse(again.body).content, '#!/bin/sh\necho two\n');

  for (const body of [{ content: ' \n\t' }, {}]) {
    await gitHookCall(hooksApp, 'PATCH', '/update', w.path, w.r.admin.auth, { content: script });
    const blank = await gitHookCall(hooksApp, 'PATCH', '/update', w.path, w.r.admin.auth, body);
    assert.is(blank.status, 200, blank.body);
    assert.equal(JSON.parse(blank.body), { name: 'update', is_active: false }, JSON.stringify(body));
    assert.equal(hookFilesIn(w.dir), ['pre-receive']);
  }
  const unknown = await gitHookCall(hooksApp, 'PATCH', '/pre-commit', w.path, w.r.admin.auth, { content: script });
  assert.is(unknown.status, 404);
  const tooLong = await gitHookCall(hooksApp, 'PATCH', '/update', w.path, w.r.admin.auth, { content: 'x'.repeat(65537) });
  assert.is(tooLong.status, 422);
  assert.equal(hookFilesIn(w.dir), ['pre-receive']);
});

test.run();
