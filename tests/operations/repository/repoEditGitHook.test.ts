// PATCH /repos/{owner}/{repo}/hooks/git/{id}: an edit (nothing stored). anvil runs no custom git hooks, so this
// answers as Gitea with git hooks disabled (its default); see tests/helpers/gitHooks.ts.
import { test } from 'uvu';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { gitHookCall, gitHookMatrix } from '../../helpers/gitHooks.js';

let app: TestApp;

test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app?.close();
});

test('403 for administrators (git hooks disabled) and other readers, 401 anonymous, 404 outsiders of a private repository', async () => {
  await gitHookMatrix(app, 'repoEditGitHook', (path, auth) => gitHookCall(app, 'PATCH', '/pre-receive', path, auth, { content: '#!/bin/sh\nexit 0\n' }));
});

test.run();
