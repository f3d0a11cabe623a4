// GET /repos/{owner}/{repo}/hooks/git: list, never as the webhook hooks/{id}. anvil runs no custom git hooks, so this
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
  await gitHookMatrix(app, 'repoListGitHooks', (path, auth) => gitHookCall(app, 'GET', '', path, auth, undefined));
});

test.run();
