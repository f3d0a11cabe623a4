import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { operations } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { assertEmpty404, editIssue, editRepo, newComment, newIssue, newLabel, newMilestone, type Label, type Milestone, type Repo } from '../../helpers/issues.js';
import { addFile, assertMatchesGit, openPull, patch, type PullRequest } from '../../helpers/pulls.js';
import { messageOf, pathOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Query = NonNullable<operations['repoListPullRequests']['parameters']['query']>;

let app: TestApp;
let r: Roles;
let repo: Repo;
let priv: Repo;
let p1: PullRequest;
let p2: PullRequest;
let p3: PullRequest;
let l1: Label;
let l2: Label;
let m: Milestone;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  const [a, b] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  [repo, priv] = [{ ...a!, path: pathOf(a!) }, { ...b!, path: pathOf(b!) }];
  for (const n of [1, 2, 3]) await patch(app, repo, r.writer, addFile(`b${n}.txt`, ['x']), { newBranch: `b${n}` });
  await patch(app, priv, r.writer, addFile('p.txt', ['p']), { newBranch: 'p' });
  [l1, l2, m] = [await newLabel(app, repo, r.owner, { name: 'one' }), await newLabel(app, repo, r.owner, { name: 'two' }), await newMilestone(app, repo, r.owner)];
  p1 = await openPull(app, repo, r.writer, 'b1', { labels: [l1.id], milestone: m.id });
  await newIssue(app, repo, r.reader);
  p2 = await openPull(app, repo, r.reader, 'b2');
  p3 = await openPull(app, repo, r.writer, 'b3', { labels: [l2.id] });
  await editIssue(app, repo, p3.number, r.writer, { state: 'closed' });
  await openPull(app, priv, r.writer, 'p');
});
test.after(async () => {
  await app.close();
});

const list = (target: Repo, query: Query = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/pulls', { params: { path: target.path, query } });

async function numbers(query: Query, target = repo, as = r.reader.auth): Promise<number[]> {
  const res = await list(target, query, as);
  assert.is(res.response.status, 200, `${JSON.stringify(query)}: ${JSON.stringify(res.error)}`);
  assertSpec('repoListPullRequests', res);
  return res.data!.map((p) => p.number);
}

const getPull = async (index: number) =>
  (await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...repo.path, index } } })).data!;

test('200: the open pull requests, newest first, each complete; no issues; X-Total-Count and Link', async () => {
  const res = await list(repo, {}, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoListPullRequests', res);
  assert.equal(res.data!.map((p) => p.number), [p2.number, p1.number]);
  assert.is(res.response.headers.get('X-Total-Count'), '2');
  assert.equal(res.data![1], await getPull(p1.number), 'the same as a single read');
  assert.equal([res.data![1]!.labels.map((l) => l.id), res.data![1]!.milestone?.id], [[l1.id], m.id]);
  const page = await list(repo, { limit: 1 }, r.reader.auth);
  assert.equal(page.data!.map((p) => p.number), [p2.number]);
  assert.match(page.response.headers.get('Link') ?? '', /rel="next"/);
  assert.equal(await numbers({ limit: 1, page: 2 }), [p1.number]);
});

test('200: state, milestone, labels (any of them) and poster filters; 400 for an unknown poster', async () => {
  assert.equal(await numbers({ state: 'closed' }), [p3.number]);
  assert.equal(await numbers({ state: 'all' }), [p3.number, p2.number, p1.number]);
  assert.equal(await numbers({ milestone: m.id }), [p1.number]);
  assert.equal(await numbers({ labels: [l1.id] }), [p1.number]);
  assert.equal(await numbers({ labels: [l1.id, l2.id], state: 'all' }), [p3.number, p1.number]);
  assert.equal(await numbers({ poster: r.reader.username }), [p2.number]);
  assert.equal(await numbers({ poster: r.writer.username.toUpperCase(), state: 'all' }), [p3.number, p1.number]);
  const unknown = await list(repo, { poster: 'no-such-user-x' }, r.reader.auth);
  assert.is(unknown.response.status, 400);
  assertSpec('repoListPullRequests', unknown);
  assert.match(messageOf(unknown.error), /user does not exist/);
});

test('X-Total-Count is the number of pull requests listed, for every state, with and without filters', async () => {
  for (const query of [{}, { state: 'closed' }, { state: 'all' }, { state: 'all', labels: [l1.id, l2.id] }, { state: 'all', poster: r.writer.username }] as Query[]) {
    const res = await list(repo, { ...query, limit: 50 }, r.reader.auth);
    assert.is(res.response.status, 200);
    assert.is(res.response.headers.get('X-Total-Count'), String(res.data!.length), JSON.stringify(query));
    assert.ok(res.data!.length > 0, JSON.stringify(query));
  }
});

test('200: sort by creation, update and comments', async () => {
  assert.equal(await numbers({ sort: 'oldest' }), [p1.number, p2.number]);
  assert.equal(await numbers({ sort: 'priority' }), [p2.number, p1.number]);
  await newComment(app, repo, p1.number, r.reader);
  assert.equal(await numbers({ sort: 'mostcomment' }), [p1.number, p2.number]);
  assert.equal(await numbers({ sort: 'leastcomment' }), [p2.number, p1.number]);
  assert.equal(await numbers({ sort: 'recentupdate' }), [p1.number, p2.number]);
  assert.equal(await numbers({ sort: 'leastupdate' }), [p2.number, p1.number]);
});

test('200: the list shows the stored statistics, refreshed when a branch changed, equal to a read of the pull request', async () => {
  await patch(app, repo, r.writer, addFile('more.txt', ['a', 'b']), { branch: 'b2' });
  const listed = (await list(repo, {}, r.reader.auth)).data!.find((p) => p.number === p2.number)!;
  assert.equal([listed.additions, listed.changed_files], [3, 2]);
  assert.is.not(listed.head.sha, p2.head.sha);
  const fresh = await getPull(p2.number);
  await assertMatchesGit(app, repo, fresh);
  assert.equal(listed, fresh);
});

test('anonymous 200 on a public repository; 404 on a private one for anonymous and outsiders; 401 a bad token; 404 with pull requests off', async () => {
  const anon = await list(repo);
  assert.is(anon.response.status, 200);
  assert.equal(anon.data!.map((p) => p.number), [p2.number, p1.number]);
  assertEmpty404(await list(priv), 'anonymous');
  assertEmpty404(await list(priv, {}, r.outsider.auth), 'outsider');
  assert.is((await numbers({}, priv)).length, 1);
  const bad = await list(repo, {}, 'token 0123456789abcdef0123456789abcdef01234567');
  assert.is(bad.response.status, 401);
  assertSpec('repoListPullRequests', bad);
  await editRepo(app, priv, { has_pull_requests: false });
  assertEmpty404(await list(priv, {}, r.reader.auth), 'pull requests off');
});

test('stored statistics follow the branches: another diff patch on a head branch shows in the list at once', async () => {
  const before = (await list(repo, {}, r.reader.auth)).data!.find((p) => p.number === p1.number)!;
  await patch(app, repo, r.writer, addFile('b1-more.txt', ['a', 'b', 'c']), { branch: 'b1' });
  const after = (await list(repo, {}, r.reader.auth)).data!.find((p) => p.number === p1.number)!;
  assert.is(after.additions, before.additions! + 3);
  assert.is(after.changed_files, before.changed_files! + 1);
  assert.is.not(after.head.sha, before.head.sha);
  await assertMatchesGit(app, repo, after);
});

test.run();
