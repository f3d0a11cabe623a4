import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoFor, roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { addTeamMember, createOrg, createTeam } from '../../helpers/orgs.js';
import { protect } from '../../helpers/pulls.js';
import { orgRepo, pathOf } from '../../helpers/repos.js';
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

test('201: the rule as given, read back the same; Gitea\'s defaults for what is omitted', async () => {
  const repo = await repoFor(app, r);
  const res = await protect(app, repo, r.owner.auth, {
    rule_name: 'release/**', priority: 3, enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [r.writer.username.toUpperCase()],
    required_approvals: 2, enable_status_check: true, status_check_contexts: ['ci/build', ' ci/build ', 'lint'], block_on_rejected_reviews: true,
  });
  assert.is(res.response.status, 201);
  assertSpec('repoCreateBranchProtection', res);
  const rule = res.data!;
  assert.equal(
    [rule.rule_name, rule.branch_name, rule.priority, rule.enable_push, rule.push_whitelist_usernames, rule.required_approvals, rule.status_check_contexts, rule.enable_force_push, rule.merge_whitelist_usernames],
    ['release/**', 'release/**', 3, true, [r.writer.username], 2, ['ci/build', 'lint'], false, []],
  );
  const read = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branch_protections/{name}', { params: { path: { ...pathOf(repo), name: 'release/**' } } });
  assert.equal(read.data, rule, 'read-after-write');
  const legacy = await protect(app, repo, r.owner.auth, { branch_name: 'main' });
  assert.equal([legacy.response.status, legacy.data?.rule_name], [201, 'main'], 'the deprecated branch_name');
});

test('201: team whitelists on an organization\'s repository', async () => {
  const org = await createOrg(app, r.owner);
  const repo = await orgRepo(app, org.username, r.owner, { auto_init: true });
  const team = await createTeam(app, r.owner, org.username, { units_map: { 'repo.code': 'write' } });
  await addTeamMember(app, r.owner, team.id, r.writer.username);
  const res = await protect(app, repo, r.owner.auth, { rule_name: 'main', enable_merge_whitelist: true, merge_whitelist_teams: [team.name] });
  assert.equal(res.data?.merge_whitelist_teams, [team.name]);
  const unknown = await protect(app, repo, r.owner.auth, { rule_name: 'dev', merge_whitelist_teams: ['nope'] });
  assert.is(unknown.response.status, 422, 'an unknown team');
  const onUserRepo = await protect(app, await repoFor(app, r), r.owner.auth, { rule_name: 'main', merge_whitelist_teams: ['nope'] });
  assert.equal([onUserRepo.response.status, onUserRepo.data?.merge_whitelist_teams], [201, []], 'teams on a user\'s repository are ignored, as Gitea');
});

test('403 exists already or not an admin; 400 no name; 422 unknown user, unsupported settings; 401, 404, 423', async () => {
  const repo = await repoFor(app, r, { private: true });
  await protect(app, repo, r.owner.auth, { rule_name: 'main' });
  const dup = await protect(app, repo, r.owner.auth, { rule_name: 'main' });
  assert.is(dup.response.status, 403);
  assertSpec('repoCreateBranchProtection', dup);
  assert.is((await protect(app, repo, r.writer.auth, { rule_name: 'dev' })).response.status, 403, 'a writer');
  assert.is((await protect(app, repo, r.owner.auth, { rule_name: '' })).response.status, 400);
  for (const body of [
    { rule_name: 'a', push_whitelist_usernames: ['nobody-at-all'] },
    { rule_name: 'c', require_signed_commits: true },
    { rule_name: 'd', protected_file_patterns: '*.lock' },
  ]) {
    const res = await protect(app, repo, r.owner.auth, body);
    assert.is(res.response.status, 422, JSON.stringify(body));
  }
  assert.is((await protect(app, repo, undefined, { rule_name: 'e' })).response.status, 401);
  assert.is((await protect(app, repo, r.outsider.auth, { rule_name: 'e' })).response.status, 404);
  await setArchived(app, repo, r.owner);
  assert.is((await protect(app, repo, r.owner.auth, { rule_name: 'e' })).response.status, 423);
});

test.run();
