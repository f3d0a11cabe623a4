import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { assertEmpty404, editRepo, newIssue, type Repo } from '../../helpers/issues.js';
import { addFile, assertMatchesGit, changeLine, openPull, patch, type PullRequest } from '../../helpers/pulls.js';
import { pathOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repo;
let priv: Repo;
let pr: PullRequest;
let hidden: PullRequest;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  const [a, b] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  [repo, priv] = [{ ...a!, path: pathOf(a!) }, { ...b!, path: pathOf(b!) }];
  await patch(app, repo, r.writer, addFile('f.txt', ['base']));
  await patch(app, repo, r.writer, addFile('a.txt', ['1', '2']), { newBranch: 'topic' });
  await patch(app, priv, r.writer, addFile('p.txt', ['p']), { newBranch: 'p' });
  pr = await openPull(app, repo, r.writer, 'topic', { body: 'text' });
  hidden = await openPull(app, priv, r.writer, 'p');
});
test.after(async () => {
  await app.close();
});

const get = (target: Repo, index: number, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...target.path, index } } });

async function read(index: number, authorization = r.reader.auth) {
  const res = await get(repo, index, authorization);
  assert.is(res.response.status, 200, `GET ${index}: ${res.response.status}`);
  assertSpec('repoGetPullRequest', res);
  return res.data!;
}

test('200: the complete pull request, as created, for readers and anonymous callers of a public repository', async () => {
  const asWriter = await read(pr.number, r.writer.auth);
  assert.equal(asWriter, pr, 'the same answer as the creation');
  const res = await get(repo, pr.number);
  assert.is(res.response.status, 200, 'anonymous');
  const anon = res.data!;
  assert.equal([anon.number, anon.head.sha, anon.base.repo!.permissions], [pr.number, pr.head.sha, { admin: false, push: false, pull: true }]);
  await assertMatchesGit(app, repo, anon);
});

test('200: when head or base moved, the statistics, shas and mergeability are computed again and stored', async () => {
  await patch(app, repo, r.writer, addFile('b.txt', ['3']), { branch: 'topic' });
  await patch(app, repo, r.writer, changeLine('f.txt', 'base', 'topic'), { branch: 'topic' });
  const moved = await read(pr.number);
  assert.equal([moved.additions, moved.deletions, moved.changed_files, moved.mergeable], [4, 1, 3, true]);
  await assertMatchesGit(app, repo, moved, 'after head moved');
  await patch(app, repo, r.writer, changeLine('f.txt', 'base', 'main'));
  const conflicting = await read(pr.number);
  assert.is(conflicting.mergeable, false);
  await assertMatchesGit(app, repo, conflicting, 'after base moved');
  assert.equal(await read(pr.number), conflicting, 'stable when nothing moved');
});

test('200: a deleted head branch keeps the stored values', async () => {
  const before = await read(pr.number);
  await disk.run(dirOf(app, repo), ['update-ref', '-d', 'refs/heads/topic']);
  assert.equal(await read(pr.number), before);
});

test('200: a merged or closed pull request\'s base.sha is the base branch\'s head now, as Gitea shows it', async () => {
  const made = await repoFor(app, r);
  const target = { ...made, path: pathOf(made) };
  await patch(app, target, r.writer, addFile('f.txt', ['base']));
  await patch(app, target, r.writer, addFile('m.txt', ['1']), { newBranch: 'merging' });
  await patch(app, target, r.writer, addFile('c.txt', ['1']), { newBranch: 'closing' });
  const [merging, closing] = [await openPull(app, target, r.writer, 'merging'), await openPull(app, target, r.writer, 'closing')];
  const merged = await app.client(r.writer.auth).POST('/repos/{owner}/{repo}/pulls/{index}/merge', {
    params: { path: { ...target.path, index: merging.number } }, body: { Do: 'merge' },
  });
  assert.is(merged.response.status, 200, JSON.stringify(merged.error));
  const closed = await app.client(r.writer.auth).PATCH('/repos/{owner}/{repo}/pulls/{index}', {
    params: { path: { ...target.path, index: closing.number } }, body: { state: 'closed' },
  });
  assert.is(closed.response.status, 201);
  const dir = dirOf(app, target);
  const read = async (index: number) => {
    const res = await get(target, index, r.reader.auth);
    assert.is(res.response.status, 200);
    assertSpec('repoGetPullRequest', res);
    return res.data!;
  };
  let tip = (await disk.tip(dir, 'main'))!;
  const afterMerge = await read(merging.number);
  assert.is(afterMerge.merged, true);
  assert.is(afterMerge.base.sha, tip, 'the merge commit: main\'s head now');
  assert.is(afterMerge.merge_commit_sha, tip);
  // main moves on: a settled pull request follows it; an open one is kept there by the sync.
  tip = await patch(app, target, r.writer, addFile('later.txt', ['1']));
  assert.is((await read(merging.number)).base.sha, tip);
  assert.is((await read(closing.number)).base.sha, tip);
  const list = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/pulls', { params: { path: target.path, query: { state: 'all' } } });
  assert.equal(list.data!.map((p) => p.base.sha), [tip, tip], 'the list answers the same');
});

test('404: an issue\'s number, a missing number, a private repository for anonymous and outsiders, pull requests off', async () => {
  const issue = await newIssue(app, repo, r.reader);
  assertEmpty404(await get(repo, issue.number, r.reader.auth), 'an issue');
  assertEmpty404(await get(repo, 999, r.reader.auth), 'missing');
  assertEmpty404(await get(priv, hidden.number), 'anonymous');
  assertEmpty404(await get(priv, hidden.number, r.outsider.auth), 'outsider');
  const seen = await get(priv, hidden.number, r.reader.auth);
  assert.is(seen.response.status, 200);
  await editRepo(app, priv, { has_pull_requests: false });
  assertEmpty404(await get(priv, hidden.number, r.reader.auth), 'pull requests off');
  const bad = await get(repo, pr.number, 'token 0123456789abcdef0123456789abcdef01234567');
  assert.is(bad.response.status, 401);
  assertSpec('repoGetPullRequest', bad);
});

test.run();
