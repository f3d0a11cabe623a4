import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
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

const get = (repo: Awaited<ReturnType<typeof repoFor>>, name: string, auth: string | undefined) =>
  app.client(auth).GET('/repos/{owner}/{repo}/branch_protections/{name}', { params: { path: { ...pathOf(repo), name } } });

test('200 for admins (a glob name in the path); 404 no such rule; 403 writers; 401 anonymous; 404 outsiders', async () => {
  const repo = await repoFor(app, r, { private: true });
  const made = await protectOk(app, repo, r.owner.auth, { rule_name: 'release/*', required_approvals: 1 });
  const res = await get(repo, 'release/*', r.owner.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetBranchProtection', res);
  assert.equal(res.data, made);
  assert.is((await get(repo, 'release', r.owner.auth)).response.status, 404);
  const writer = await get(repo, 'release/*', r.writer.auth);
  assert.is(writer.response.status, 403);
  assertSpec('repoGetBranchProtection', writer);
  assert.is((await get(repo, 'release/*', undefined)).response.status, 401);
  assert.is((await get(repo, 'release/*', r.outsider.auth)).response.status, 404);
});

test.run();
