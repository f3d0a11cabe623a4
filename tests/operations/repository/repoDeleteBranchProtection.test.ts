import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoFor, roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { protectOk } from '../../helpers/pulls.js';
import { pathOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

type Repo = Awaited<ReturnType<typeof repoFor>>;
const del = (repo: Repo, name: string, auth: string | undefined) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/branch_protections/{name}', { params: { path: { ...pathOf(repo), name } } });

test('204 for admins, then the branch is unprotected; 404 no such rule', async () => {
  const repo = await repoFor(app, r);
  await protectOk(app, repo, r.owner.auth, { rule_name: 'main' });
  const res = await del(repo, 'main', r.owner.auth);
  assert.is(res.response.status, 204);
  assertSpec('repoDeleteBranchProtection', res);
  const branch = await app.client(r.writer.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(repo), branch: 'main' } } });
  assert.equal([branch.data!.protected, branch.data!.user_can_push], [false, true]);
  assert.is((await del(repo, 'main', r.owner.auth)).response.status, 404);
});

test('403 writers, 401 anonymous, 404 outsiders of a private repository, 423 archived', async () => {
  const repo = await repoFor(app, r, { private: true });
  await protectOk(app, repo, r.owner.auth, { rule_name: 'main' });
  const writer = await del(repo, 'main', r.writer.auth);
  assert.is(writer.response.status, 403);
  assertSpec('repoDeleteBranchProtection', writer);
  assert.is((await del(repo, 'main', undefined)).response.status, 401);
  assert.is((await del(repo, 'main', r.outsider.auth)).response.status, 404);
  await setArchived(app, repo, r.owner);
  assert.is((await del(repo, 'main', r.owner.auth)).response.status, 423);
});

test.run();
