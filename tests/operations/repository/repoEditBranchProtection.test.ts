import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoFor, roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { protectOk } from '../../helpers/pulls.js';
import { pathOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import type { components } from '../../../generated/openapi.js';

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
const edit = (repo: Repo, name: string, auth: string | undefined, body: components['schemas']['EditBranchProtectionOption']) =>
  app.client(auth).PATCH('/repos/{owner}/{repo}/branch_protections/{name}', { params: { path: { ...pathOf(repo), name } }, body });

test('200: only the fields given change; a whitelist given replaces the list', async () => {
  const repo = await repoFor(app, r);
  const made = await protectOk(app, repo, r.owner.auth, {
    rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [r.writer.username], required_approvals: 1,
  });
  const res = await edit(repo, 'main', r.owner.auth, { required_approvals: 3, push_whitelist_usernames: [r.reader.username, r.owner.username], priority: 7 });
  assert.is(res.response.status, 200);
  assertSpec('repoEditBranchProtection', res);
  const { updated_at: _u, push_whitelist_usernames: whitelist, ...rest } = res.data!;
  const { updated_at: _m, push_whitelist_usernames: _w, ...before } = made;
  assert.equal(rest, { ...before, required_approvals: 3, priority: 7 }, 'the rest as it was');
  assert.equal([...whitelist].sort(), [r.reader.username, r.owner.username].sort(), 'the whitelist replaced');
  const nulls = await edit(repo, 'main', r.owner.auth, { required_approvals: null, enable_push: null });
  assert.equal([nulls.data!.required_approvals, nulls.data!.enable_push], [3, true], 'null leaves a field as it is');
});

test('404 no such rule; 403 writers; 422 unknown user or unsupported setting; 401; 423 archived', async () => {
  const repo = await repoFor(app, r);
  await protectOk(app, repo, r.owner.auth, { rule_name: 'main' });
  assert.is((await edit(repo, 'dev', r.owner.auth, { required_approvals: 1 })).response.status, 404);
  const writer = await edit(repo, 'main', r.writer.auth, { required_approvals: 1 });
  assert.is(writer.response.status, 403);
  assertSpec('repoEditBranchProtection', writer);
  assert.is((await edit(repo, 'main', r.owner.auth, { merge_whitelist_usernames: ['nobody-at-all'] })).response.status, 422);
  assert.is((await edit(repo, 'main', r.owner.auth, { require_signed_commits: true })).response.status, 422);
  assert.is((await edit(repo, 'main', undefined, { required_approvals: 1 })).response.status, 401);
  await setArchived(app, repo, r.owner);
  assert.is((await edit(repo, 'main', r.owner.auth, { required_approvals: 1 })).response.status, 423);
});

test.run();
