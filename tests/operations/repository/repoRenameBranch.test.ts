import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import { getPull, protectOk, pullFixture } from '../../helpers/pulls.js';
import { getRepo, pathOf, type Repository } from '../../helpers/repos.js';
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

let n = 0;
/** A new branch of `repo` (off main) named `prefix-N`. */
async function branch(repo: Repository, prefix = 'old'): Promise<string> {
  const name = `${prefix}-${n++}`;
  await disk.commit(dirOf(app, repo), name, { [`${name}.txt`]: name }, { from: 'main' });
  return name;
}
const rename = (repo: Repository, from: string, to: string, auth: string | undefined) =>
  app.client(auth).PATCH('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(repo), branch: from } }, body: { name: to } });
const getBranch = (repo: Repository, name: string) =>
  app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(repo), branch: name } } });

test('204: a writer renames a branch; git moves it, the old name is 404, the delete and create events are recorded (no push)', async () => {
  const repo = await repoFor(app, r);
  const dir = dirOf(app, repo);
  const from = await branch(repo);
  const tip = await disk.tip(dir, from);
  const before = (await eventsOf(app, repo.id)).rows.length;
  const res = await rename(repo, from, 'feature/new', r.writer.auth);
  assert.is(res.response.status, 204);
  assertSpec('repoRenameBranch', res);
  assert.is(await res.response.text(), '');
  assert.is(await disk.tip(dir, 'feature/new'), tip, 'the new name points at the same commit');
  assert.is(await disk.tip(dir, from), undefined, 'the old name is gone from git');
  assert.is((await getBranch(repo, from)).response.status, 404);
  assert.is((await getBranch(repo, 'feature/new')).data!.commit.id, tip);
  const recorded = (await eventsOf(app, repo.id)).rows.slice(before);
  assert.equal(recorded.map((e) => e.type).sort(), ['create', 'delete'], 'as Gitea: DeleteRef and CreateRef');
  assert.ok(JSON.stringify(recorded).includes(from) && JSON.stringify(recorded).includes('feature/new'));
  const count = (await disk.run(dir, ['for-each-ref', 'refs/heads/'])).trim().split('\n').length;
  assert.is((await getRepo(app, r.owner.username, repo.name, r.owner.auth)).data!.branch_count, count);
});

test('the default branch follows (a repository admin renames it); HEAD follows in git', async () => {
  const repo = await repoFor(app, r);
  const writer = await rename(repo, 'main', 'trunk', r.writer.auth);
  assert.is(writer.response.status, 403, 'the default branch needs a repository admin');
  assertSpec('repoRenameBranch', writer);
  assert.is((await rename(repo, 'main', 'trunk', r.owner.auth)).response.status, 204);
  assert.is((await getRepo(app, r.owner.username, repo.name, r.owner.auth)).data!.default_branch, 'trunk');
  assert.is((await disk.run(dirOf(app, repo), ['symbolic-ref', 'HEAD'])).trim(), 'refs/heads/trunk');
  assert.is((await rename(repo, 'trunk', 'main', r.admin.auth)).response.status, 204, 'a site administrator too');
  assert.is((await getRepo(app, r.owner.username, repo.name, r.owner.auth)).data!.default_branch, 'main');
});

test('open pull requests follow as head and as base; the protection rule named after the branch follows', async () => {
  const f = await pullFixture(app, r);
  assert.is((await rename(f.repo, f.branch, 'renamed-head', r.writer.auth)).response.status, 204);
  const pr = await getPull(app, f.repo, f.pr.number, r.owner.auth);
  assert.equal([pr.head.ref, pr.head.sha, pr.state], ['renamed-head', f.head, 'open']);
  // A pull request whose base is renamed, and the exact-name rule of that base.
  await disk.commit(f.dir, 'dev', { 'd.txt': 'd' }, { from: 'main' });
  await disk.commit(f.dir, 'topic-dev', { 't.txt': 't' }, { from: 'dev' });
  const opened = await app.client(r.writer.auth).POST('/repos/{owner}/{repo}/pulls', { params: { path: f.repo.path }, body: { head: 'topic-dev', base: 'dev', title: 'onto dev' } });
  assert.is(opened.response.status, 201);
  await protectOk(app, f.repo, r.owner.auth, { rule_name: 'dev', required_approvals: 2 });
  const writer = await rename(f.repo, 'dev', 'develop', r.writer.auth);
  assert.is(writer.response.status, 403, 'a protected branch needs a repository admin');
  assert.is((await rename(f.repo, 'dev', 'develop', r.owner.auth)).response.status, 204);
  assert.is((await getPull(app, f.repo, opened.data!.number, r.owner.auth)).base.ref, 'develop');
  const rule = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branch_protections/{name}', { params: { path: { ...f.repo.path, name: 'develop' } } });
  assert.is(rule.response.status, 200, 'the rule follows the branch');
  assert.is(rule.data!.required_approvals, 2);
  assert.is((await getBranch(f.repo, 'develop')).data!.protected, true);
});

test('403: readers, a mirror-less protected target the caller may not push to; 401 anonymous; 404 outsiders, missing branch, empty repository', async () => {
  const repo = await repoFor(app, r, { private: true });
  const from = await branch(repo);
  const reader = await rename(repo, from, 'x', r.reader.auth);
  assert.is(reader.response.status, 403);
  assertSpec('repoRenameBranch', reader);
  assert.is((await rename(repo, from, 'x', undefined)).response.status, 401);
  assert.is((await rename(repo, from, 'x', r.outsider.auth)).response.status, 404);
  const missing = await rename(repo, 'no-such-branch', 'x', r.writer.auth);
  assert.is(missing.response.status, 404);
  assertSpec('repoRenameBranch', missing);
  await protectOk(app, repo, r.owner.auth, { rule_name: 'locked/*' });
  const locked = await rename(repo, from, 'locked/one', r.writer.auth);
  assert.is(locked.response.status, 403, 'the new name is protected from the writer (no push allowed)');
  assert.ok(await disk.tip(dirOf(app, repo), from), 'refusals change nothing');
  const empty = await repoFor(app, r, { auto_init: false });
  assert.is((await rename(empty, 'main', 'x', r.owner.auth)).response.status, 404);
});

test('422: the same name, an existing branch, a conflicting path, an invalid name; 423 archived', async () => {
  const repo = await repoFor(app, r);
  const from = await branch(repo);
  const other = await branch(repo, 'taken');
  for (const to of [from, other, `${other}/sub`, 'bad..name', 'a b', '']) {
    const res = await rename(repo, from, to, r.writer.auth);
    assert.is(res.response.status, 422, JSON.stringify(to));
    assertSpec('repoRenameBranch', res);
  }
  assert.ok(await disk.tip(dirOf(app, repo), from));
  await setArchived(app, repo, r.owner);
  assert.is((await rename(repo, from, 'y', r.owner.auth)).response.status, 423);
});

test.run();
