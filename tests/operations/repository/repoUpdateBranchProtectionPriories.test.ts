import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoFor, roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { protectOk } from '../../helpers/pulls.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
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

const setOrder = (repo: Repository, auth: string | undefined, ids: number[]) =>
  app.client(auth).POST('/repos/{owner}/{repo}/branch_protections/priority', { params: { path: pathOf(repo) }, body: { ids } });
const rules = async (repo: Repository) => {
  const res = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branch_protections', { params: { path: pathOf(repo) } });
  assert.is(res.response.status, 200);
  return res.data!.map((p) => [p.rule_name, p.priority]);
};
/** The name of the rule that protects `branch` (GET …/branches/{branch}), after making the branch. */
async function effective(repo: Repository, branch: string): Promise<string | undefined> {
  await app.client(r.owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: pathOf(repo) }, body: { new_branch_name: branch } });
  const res = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(repo), branch } } });
  assert.is(res.response.status, 200);
  return res.data!.effective_branch_protection_name;
}

test('204: the listed rules get priorities 1, 2, …; the first matching glob by priority protects a branch; exact names stay first', async () => {
  const repo = await repoFor(app, r);
  const wide = await protectOk(app, repo, r.owner.auth, { rule_name: 'release/**' });
  const narrow = await protectOk(app, repo, r.owner.auth, { rule_name: 'release/v*' });
  const exact = await protectOk(app, repo, r.owner.auth, { rule_name: 'release/v1' });
  assert.equal([wide.priority, narrow.priority, exact.priority], [1, 2, 3], 'a new rule goes last (highest priority + 1), as in Gitea');
  assert.is(await effective(repo, 'release/v2'), 'release/**', 'the older glob first');
  const res = await setOrder(repo, r.owner.auth, [narrow.id, wide.id]);
  assert.is(res.response.status, 204);
  assertSpec('repoUpdateBranchProtectionPriories', res);
  assert.is(await res.response.text(), '');
  assert.equal(await rules(repo), [['release/v1', 3], ['release/v*', 1], ['release/**', 2]]);
  assert.is(await effective(repo, 'release/v3'), 'release/v*', 'the glob given priority 1 matches first');
  assert.is(await effective(repo, 'release/x'), 'release/**');
  assert.is(await effective(repo, 'release/v1'), 'release/v1', 'an exact name before any glob, whatever the priorities');
  // The site administrator may too; an id of another repository's rule and an unknown id change nothing.
  const other = await repoFor(app, r);
  const foreign = await protectOk(app, other, r.owner.auth, { rule_name: 'main' });
  assert.is((await setOrder(repo, r.admin.auth, [wide.id, foreign.id, 99_999_999])).response.status, 204);
  // Only the listed rule changed (Gitea leaves the others alone): equal priorities go by age.
  assert.equal(await rules(repo), [['release/v1', 3], ['release/**', 1], ['release/v*', 1]]);
  assert.equal(await rules(other), [['main', 1]], 'the other repository\'s rule kept its priority');
  assert.is((await setOrder(repo, r.owner.auth, [])).response.status, 204, 'an empty list changes nothing');
  assert.equal(await rules(repo), [['release/v1', 3], ['release/**', 1], ['release/v*', 1]]);
});

test('403 writers and readers; 401 anonymous; 404 outsiders of a private repository; 422 an id twice or not a list; 423 archived', async () => {
  const repo = await repoFor(app, r, { private: true });
  const rule = await protectOk(app, repo, r.owner.auth, { rule_name: 'main' });
  for (const who of [r.writer, r.reader]) {
    const res = await setOrder(repo, who.auth, [rule.id]);
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoUpdateBranchProtectionPriories', res);
  }
  assert.is((await setOrder(repo, undefined, [rule.id])).response.status, 401);
  assert.is((await setOrder(repo, r.outsider.auth, [rule.id])).response.status, 404);
  const twice = await setOrder(repo, r.owner.auth, [rule.id, rule.id]);
  assert.is(twice.response.status, 422);
  assertSpec('repoUpdateBranchProtectionPriories', twice);
  const notList = await fetch(`${app.url}/api/v1/repos/${repo.full_name}/branch_protections/priority`, {
    method: 'POST', headers: { Authorization: r.owner.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ ids: 'x' }),
  });
  assert.is(notList.status, 422);
  await setArchived(app, repo, r.owner);
  assert.is((await setOrder(repo, r.owner.auth, [rule.id])).response.status, 423);
  assert.equal(await rules(repo), [['main', 1]], 'refusals change nothing');
});

test.run();
