import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { assertEmpty404, editIssue, newIssue, newLabel, newMilestone, type Repo } from '../../helpers/issues.js';
import { addFile, assertMatchesGit, changeLine, patch } from '../../helpers/pulls.js';
import { getRepo, messageOf, pathOf, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Body = components['schemas']['CreatePullRequestOption'];

let app: TestApp;
let r: Roles;
let repo: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  const [a, b] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  [repo, priv] = [{ ...a!, path: pathOf(a!) }, { ...b!, path: pathOf(b!) }];
  const w = r.writer;
  await patch(app, repo, w, addFile('shared.txt', ['base']) + addFile('conflict.txt', ['base']));
  await app.client(w.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: 'behind', old_branch_name: 'main' } });
  await patch(app, repo, w, addFile('a.txt', ['1', '2', '3']), { newBranch: 'feature' });
  await patch(app, repo, w, changeLine('shared.txt', 'base', 'feat'), { branch: 'feature' });
  await patch(app, repo, w, changeLine('conflict.txt', 'base', 'clash'), { newBranch: 'clash' });
  await patch(app, repo, w, changeLine('conflict.txt', 'base', 'main'));
  await app.client(w.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: 'same', old_branch_name: 'main' } });
  await patch(app, repo, w, addFile('dep.txt', ['v2']), { newBranch: 'renovate/dep' });
  const logo = randomBytes(2000);
  logo[5] = 0;
  await disk.commit(dirOf(app, repo), 'binary', { 'logo.bin': logo, 'x.txt': 'x\n' }, { from: 'main' });
  await patch(app, priv, w, addFile('p.txt', ['p']), { newBranch: 'p1' });
});
test.after(async () => {
  await app.close();
});

const create = (target: Repo, body: Body, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/pulls', { params: { path: target.path }, body });

async function created(target: Repo, body: Body, authorization = r.writer.auth) {
  const res = await create(target, body, authorization);
  assert.is(res.response.status, 201, `${JSON.stringify(body)} → ${res.response.status} ${JSON.stringify(res.error)}`);
  assertSpec('repoCreatePullRequest', res);
  return res.data!;
}

const openPrs = async (target: Repo) => (await getRepo(app, target.path.owner, target.path.repo, r.owner.auth)).data!.open_pr_counter;

test('201: a writer opens feature → main; statistics from git; numbers shared with issues; open_pr_counter', async () => {
  const before = await newIssue(app, repo, r.reader);
  const pr = await created(repo, { head: 'feature', base: 'main', title: 'Add a', body: 'please' });
  const html = `${app.config.rootUrl}${repo.full_name}/pulls/${pr.number}`;
  assert.is(pr.number, before.number + 1, 'the next number of the shared counter');
  assert.equal(
    { title: pr.title, body: pr.body, state: pr.state, user: pr.user.login, url: pr.url, html: pr.html_url, diff: pr.diff_url, patch: pr.patch_url },
    { title: 'Add a', body: 'please', state: 'open', user: r.writer.username, url: html, html, diff: `${html}.diff`, patch: `${html}.patch` },
  );
  assert.equal(
    { mergeable: pr.mergeable, merged: pr.merged, merged_at: pr.merged_at, merged_by: pr.merged_by, merge_commit_sha: pr.merge_commit_sha, draft: pr.draft },
    { mergeable: true, merged: false, merged_at: null, merged_by: null, merge_commit_sha: null, draft: false },
  );
  assert.equal([pr.labels, pr.assignees, pr.assignee, pr.milestone, pr.requested_reviewers, pr.comments], [[], [], null, null, [], 0]);
  assert.equal([pr.head.label, pr.head.ref, pr.head.repo_id, pr.head.repo!.full_name], ['feature', 'feature', repo.id, repo.full_name]);
  assert.equal([pr.base.label, pr.base.ref, pr.base.repo_id, pr.base.repo!.permissions], ['main', 'main', repo.id, { admin: false, push: true, pull: true }]);
  assert.equal([pr.additions, pr.deletions, pr.changed_files], [4, 1, 2]);
  await assertMatchesGit(app, repo, pr);
  assert.is(pr.base.repo!.open_pr_counter, 1, 'the repository as it is after the creation');
  assert.is(await openPrs(repo), 1);
  assert.is((await newIssue(app, repo, r.reader)).number, pr.number + 1);
  const asIssue = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index: pr.number } } });
  assert.is(asIssue.data!.pull_request?.html_url, html, 'the issue side knows it is a pull request');
});

test('201: `owner:branch` head; binary files count as changed with no lines; a WIP title is a draft and not mergeable', async () => {
  const pr = await created(repo, { head: `${repo.path.owner}:binary`, base: 'main', title: 'WIP: logo' });
  assert.is(pr.head.label, 'binary');
  assert.equal([pr.additions, pr.deletions, pr.changed_files], [1, 0, 2]);
  await assertMatchesGit(app, repo, pr);
  assert.equal([pr.draft, pr.mergeable], [true, false]);
});

test('201: mergeable is false when head and base change the same line', async () => {
  const pr = await created(repo, { head: 'clash', base: 'main', title: 'clash' });
  assert.is(pr.mergeable, false);
  await assertMatchesGit(app, repo, pr);
});

test('409: an open pull request from the same head to the same base exists (Renovate); again possible once closed', async () => {
  const first = await created(repo, { head: 'renovate/dep', base: 'main', title: 'Update dep' });
  const open = await openPrs(repo);
  const dup = await create(repo, { head: 'renovate/dep', base: 'main', title: 'Update dep again' }, r.writer.auth);
  assert.is(dup.response.status, 409);
  assertSpec('repoCreatePullRequest', dup);
  assert.match(messageOf(dup.error), /already exists/);
  assert.is((dup.error as { url: string }).url, swaggerOf(app));
  assert.is(await openPrs(repo), open, 'nothing created');
  const other = await created(repo, { head: 'renovate/dep', base: 'behind', title: 'to another base' });
  assert.is(other.number, first.number + 1, 'the refused creation gave its number back');
  await editIssue(app, repo, first.number, r.writer, { state: 'closed' });
  const again = await created(repo, { head: 'renovate/dep', base: 'main', title: 'Update dep' });
  assert.is(again.number, other.number + 1);
});

test('422: head equal to base, no commits between, empty title, unknown or unassignable assignee', async () => {
  const open = await openPrs(repo);
  const cases: Array<[Partial<Body>, RegExp]> = [
    [{ head: 'main', base: 'main' }, /no changes between the head and the base/],
    [{ head: 'same', base: 'main' }, /no commits between/],
    [{ head: 'behind', base: 'main' }, /no commits between/],
    [{ title: '' }, /title/],
    [{ title: '   ' }, /title/],
    [{ assignees: ['no-such-user-x'] }, /Assignee does not exist/],
    [{ assignee: r.reader.username }, /does not have access/],
  ];
  for (const [change, pattern] of cases) {
    const res = await create(repo, { head: 'feature', base: 'behind', title: 't', ...change }, r.writer.auth);
    assert.is(res.response.status, 422, JSON.stringify(change));
    assertSpec('repoCreatePullRequest', res);
    assert.match(messageOf(res.error), pattern, JSON.stringify(change));
  }
  assert.is(await openPrs(repo), open, 'nothing created');
});

test('404: a missing base or head, a name that is no branch, another owner\'s head without a fork (tests/integration/forkPulls), a milestone of another repository, an outsider on a private repository', async () => {
  const m = await newMilestone(app, priv, r.owner, { title: 'elsewhere' });
  for (const change of [{ base: 'nope' }, { head: 'nope' }, { head: 'bad..name' }, { head: 'somebody:feature' }, { milestone: m.id }] as Array<Partial<Body>>) {
    const res = await create(repo, { head: 'feature', base: 'behind', title: 't', ...change }, r.writer.auth);
    assertEmpty404(res, JSON.stringify(change));
  }
  assertEmpty404(await create(priv, { head: 'p1', base: 'main', title: 't' }, r.outsider.auth), 'outsider');
});

test('201: a reader opens one and, as Gitea, sets labels, milestone, assignees and due date as poster', async () => {
  const [label, milestone] = [await newLabel(app, priv, r.owner), await newMilestone(app, priv, r.owner, { title: 'ms' })];
  const pr = await created(priv, {
    head: 'p1', base: 'main', title: 'from a reader', labels: [label.id, 999999], milestone: milestone.id,
    assignees: [r.writer.username], due_date: '2030-01-02T03:04:05Z',
  }, r.reader.auth);
  assert.equal([pr.user.login, pr.labels.map((l) => l.id), pr.milestone?.id, pr.assignees.map((a) => a.login), pr.due_date],
    [r.reader.username, [label.id], milestone.id, [r.writer.username], '2030-01-02T03:04:05Z']);
  assert.equal([pr.milestone?.open_issues, pr.base.repo!.permissions!.push], [1, false]);
});

test('401 anonymous, 403 a token without write:repository, 423 an archived repository', async () => {
  const body = { head: 'feature', base: 'behind', title: 't' };
  const anon = await create(repo, body);
  assert.is(anon.response.status, 401);
  assertSpec('repoCreatePullRequest', anon);
  const scoped = await create(repo, body, await wrongScope(app, r.writer, true));
  assert.is(scoped.response.status, 403);
  assertSpec('repoCreatePullRequest', scoped);
  await setArchived(app, priv, r.owner);
  const archived = await create(priv, { head: 'p1', base: 'main', title: 't' }, r.writer.auth);
  assert.is(archived.response.status, 423);
  assertSpec('repoCreatePullRequest', archived);
});

test.run();
