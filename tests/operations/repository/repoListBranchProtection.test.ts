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

const list = (repo: Awaited<ReturnType<typeof repoFor>>, auth: string | undefined) =>
  app.client(auth).GET('/repos/{owner}/{repo}/branch_protections', { params: { path: pathOf(repo) } });

test('200 for admins: exact names first, then globs by priority', async () => {
  const repo = await repoFor(app, r);
  await protectOk(app, repo, r.owner.auth, { rule_name: 'feature/*', priority: 5 });
  await protectOk(app, repo, r.owner.auth, { rule_name: 'main' });
  await protectOk(app, repo, r.owner.auth, { rule_name: 'release/*', priority: 1 });
  const res = await list(repo, r.owner.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoListBranchProtection', res);
  assert.equal(res.data!.map((p) => p.rule_name), ['main', 'release/*', 'feature/*']);
  assert.is((await list(repo, r.admin.auth)).response.status, 200, 'a site administrator');
});

test('403 writers and readers, 401 anonymous, 404 outsiders of a private repository', async () => {
  const repo = await repoFor(app, r, { private: true });
  const writer = await list(repo, r.writer.auth);
  assert.is(writer.response.status, 403);
  assertSpec('repoListBranchProtection', writer);
  assert.is((await list(repo, r.reader.auth)).response.status, 403);
  assert.is((await list(repo, r.outsider.auth)).response.status, 404);
  assert.is((await list(repo, undefined)).response.status, 401);
});

test.run();
