import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { editRepo, editIssue, newIssue, type Repo } from '../../helpers/issues.js';
import { addLink } from '../../helpers/dependencies.js';
import {
  addFile, changeLine, expectedMergeTree, getPull, graphOf, isMerged, mergePull, openPull, patch, pullFixture, treeOfRev, type PullRequest,
} from '../../helpers/pulls.js';
import { pathOf } from '../../helpers/repos.js';
import { eventsOf, feed, gitWorkspace, opTypes } from '../../helpers/events.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { eq } from 'drizzle-orm';
import { pullRequests } from '../../../src/db/schema/index.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

const fixture = (opts: { diverge?: boolean; priv?: boolean } = {}) => pullFixture(app, r, opts);

async function mergeOk(repo: Repo, pr: PullRequest, body: Parameters<typeof mergePull>[4], auth = r.writer.auth) {
  const res = await mergePull(app, repo, auth, pr.number, body);
  assert.is(res.response.status, 200, `merge ${body.Do}: ${JSON.stringify(res.error)}`);
  assertSpec('repoMergePullRequest', res);
}

test('200 merge: a merge commit of the base and head tips, Gitea\'s message, the pull request merged and closed', async () => {
  const f = await fixture({ diverge: true });
  await mergeOk(f.repo, f.pr, { Do: 'merge' });
  const tip = (await disk.tip(f.dir, 'main'))!;
  const [[sha, ...parents]] = await graphOf(f.dir, 'main', 1) as [string[]];
  assert.is(sha, tip);
  assert.equal(parents, [f.base, f.head], 'first parent the old base, second the head');
  assert.is(await treeOfRev(f.dir, tip), await expectedMergeTree(f.dir, f.base, f.head), 'the tree of a clean merge');
  const message = await disk.run(f.dir, ['log', '-1', '--format=%B', tip]);
  assert.is(message.trim(), `Merge pull request 'Add a and b' (#${f.pr.number}) from ${f.branch} into main`);
  const after = await getPull(app, f.repo, f.pr.number, r.reader.auth);
  assert.equal(
    [after.merged, after.state, after.merge_commit_sha, after.merged_by?.login, typeof after.merged_at],
    [true, 'closed', tip, r.writer.username, 'string'],
  );
  assert.is(await isMerged(app, f.repo, f.pr.number), 204);
  const repo = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: f.repo.path } });
  assert.is(repo.data!.open_pr_counter, 0);
});

test('200 merge: the push of the base and the merged pull request are recorded (events, activity)', async () => {
  const f = await fixture({ diverge: true });
  await mergeOk(f.repo, f.pr, { Do: 'merge', MergeTitleField: 'Custom title', MergeMessageField: 'More words.' });
  const tip = (await disk.tip(f.dir, 'main'))!;
  assert.is((await disk.run(f.dir, ['log', '-1', '--format=%B', tip])).trim(), 'Custom title\n\nMore words.');
  const { kinds, rows } = await eventsOf(app, f.repo.id);
  assert.equal(kinds.slice(-2), ['push', 'pull_request/closed']);
  const push = rows.at(-2)!.data as { ref: string; before: string; after: string };
  assert.equal([push.ref, push.before, push.after], ['refs/heads/main', f.base, tip]);
  const activity = await feed(app, f.repo.path, r.owner.auth);
  assert.ok(opTypes(activity.data).includes('merge_pull_request'), `feed: ${opTypes(activity.data)}`);
});

test('200 squash: one commit of the whole change on the base, the poster as author, the merger as co-author', async () => {
  const f = await fixture({ diverge: true });
  await mergeOk(f.repo, f.pr, { Do: 'squash' }, r.owner.auth);
  const tip = (await disk.tip(f.dir, 'main'))!;
  assert.equal((await graphOf(f.dir, 'main', 1))[0], [tip, f.base], 'a single parent: the old base');
  assert.is(await treeOfRev(f.dir, tip), await expectedMergeTree(f.dir, f.base, f.head));
  const [author, body] = (await disk.run(f.dir, ['log', '-1', '--format=%an%x00%B', tip])).split('\0');
  const writer = await app.client(r.writer.auth).GET('/user');
  assert.is(author, writer.data!.full_name || r.writer.username, 'the poster is the author');
  assert.ok(body!.startsWith(`Add a and b (#${f.pr.number})\n\nCo-authored-by: `), body);
  assert.is((await getPull(app, f.repo, f.pr.number)).merge_commit_sha, tip);
});

test('200 rebase: the head\'s commits replayed on the base (authors and messages kept, linear), or a fast-forward', async () => {
  const f = await fixture({ diverge: true });
  const original = (await disk.run(f.dir, ['log', '--format=%an|%ae|%at|%s', `main..${f.branch}`])).trim();
  await mergeOk(f.repo, f.pr, { Do: 'rebase' }, r.owner.auth);
  const tip = (await disk.tip(f.dir, 'main'))!;
  const graph = await graphOf(f.dir, 'main', 3);
  assert.equal(graph.map((c) => c.length), [2, 2, 2], 'no merge commit');
  assert.equal([graph[0]![1], graph[1]![1]], [graph[1]![0], graph[2]![0]], 'a chain');
  assert.is(graph[2]![0], f.base, 'replayed on the old base');
  assert.is((await disk.run(f.dir, ['log', '--format=%an|%ae|%at|%s', `${f.base}..${tip}`])).trim(), original, 'authors, dates, messages kept');
  assert.is(await treeOfRev(f.dir, tip), await expectedMergeTree(f.dir, f.base, f.head));
  assert.is((await getPull(app, f.repo, f.pr.number)).merge_commit_sha, tip);

  const ff = await fixture();
  await mergeOk(ff.repo, ff.pr, { Do: 'rebase' });
  assert.is(await disk.tip(ff.dir, 'main'), ff.head, 'nothing new on the base: the head\'s own commits');
});

test('200 rebase: a commit undone by a later one stays undone (each commit is replayed against its own parent)', async () => {
  const f = await fixture({ diverge: true });
  await disk.commit(f.dir, f.branch, { 'x.txt': 'temporary\n' });
  await disk.commit(f.dir, f.branch, { 'x.txt': null });
  await mergeOk(f.repo, f.pr, { Do: 'rebase' });
  const files = await disk.files(f.dir, 'main');
  for (const p of ['a.txt', 'b.txt', 'f.txt', 'm.txt']) assert.ok(files.includes(p), p);
  assert.not.ok(files.includes('x.txt'), 'added then removed on the branch: absent after the rebase');
});

test('200 rebase-merge: rebased, then a merge commit of the old base and the rebased head', async () => {
  const f = await fixture({ diverge: true });
  await mergeOk(f.repo, f.pr, { Do: 'rebase-merge' });
  const [[tip, p1, p2]] = await graphOf(f.dir, 'main', 1) as [string[]];
  assert.is(p1, f.base);
  assert.is.not(p2, f.head, 'the head was rebased');
  assert.is((await graphOf(f.dir, p2!, 3))[2]![0], f.base, 'the rebased commits sit on the old base');
  assert.is(await treeOfRev(f.dir, tip!), await expectedMergeTree(f.dir, f.base, f.head));
});

test('200 fast-forward-only: the base moves to the head; 409 when the base has commits the head lacks', async () => {
  const f = await fixture();
  await mergeOk(f.repo, f.pr, { Do: 'fast-forward-only' });
  assert.is(await disk.tip(f.dir, 'main'), f.head);
  assert.is((await getPull(app, f.repo, f.pr.number)).merge_commit_sha, f.head);

  const d = await fixture({ diverge: true });
  const res = await mergePull(app, d.repo, r.writer.auth, d.pr.number, { Do: 'fast-forward-only' });
  assert.is(res.response.status, 409);
  assertSpec('repoMergePullRequest', res);
  assert.is(await disk.tip(d.dir, 'main'), d.base, 'the base did not move');
  assert.is((await getPull(app, d.repo, d.pr.number)).merged, false);
});

test('manually-merged: 405 unless allowed; 409 "Wrong commit ID" for a commit not on the base; 200 marks it merged', async () => {
  const f = await fixture({ diverge: true });
  const denied = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'manually-merged', MergeCommitID: f.base });
  assert.is(denied.response.status, 405, 'allow_manual_merge is off by default');
  await editRepo(app, f.repo, { allow_manual_merge: true });
  for (const id of [f.head, 'abc', '0'.repeat(40)]) {
    const res = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'manually-merged', MergeCommitID: id });
    assert.is(res.response.status, 409, id);
    assert.match((res.error as { message: string }).message, 'Wrong commit ID');
  }
  // Merged by hand with git: the base now holds the head.
  const merged = await disk.commit(f.dir, 'main', { 'a.txt': '1\n', 'b.txt': '2\n' }, { message: 'merged by hand' });
  await mergeOk(f.repo, f.pr, { Do: 'manually-merged', MergeCommitID: merged });
  const pr = await getPull(app, f.repo, f.pr.number);
  assert.equal([pr.merged, pr.merge_commit_sha, pr.state], [true, merged, 'closed']);
  assert.is(await disk.tip(f.dir, 'main'), merged, 'nothing written');
});

test('405: already merged, a reader, a work in progress, a style the repository does not allow; 404 closed', async () => {
  const f = await fixture({ diverge: true });
  const asReader = await mergePull(app, f.repo, r.reader.auth, f.pr.number, { Do: 'merge' });
  assert.is(asReader.response.status, 405);
  assertSpec('repoMergePullRequest', asReader);
  await editRepo(app, f.repo, { allow_squash_merge: false });
  assert.is((await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'squash' })).response.status, 405, 'squash off');
  await editIssue(app, f.repo, f.pr.number, r.writer, { title: 'WIP: not yet' });
  assert.is((await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge' })).response.status, 405, 'draft');
  await editIssue(app, f.repo, f.pr.number, r.writer, { title: 'ready' });
  await editIssue(app, f.repo, f.pr.number, r.writer, { state: 'closed' });
  const closed = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge' });
  assert.is(closed.response.status, 404, 'closed');
  await editIssue(app, f.repo, f.pr.number, r.writer, { state: 'open' });
  await mergeOk(f.repo, f.pr, { Do: 'merge' });
  assert.is((await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge' })).response.status, 405, 'merged');
  assert.is(await isMerged(app, f.repo, f.pr.number, r.reader.auth), 204);
});

test('405 while an issue the pull request depends on is open (Gitea\'s ErrDependenciesLeft); merged once it is closed', async () => {
  const f = await fixture();
  const blocker = await newIssue(app, f.repo, r.writer, { title: 'do this first' });
  const linked = await addLink(app, 'dependencies', f.repo, f.pr.number, r.writer.auth, { index: blocker.number });
  assert.is(linked.response.status, 201, JSON.stringify(linked.error));
  const blocked = await mergePull(app, f.repo, r.owner.auth, f.pr.number, { Do: 'merge' });
  assert.is(blocked.response.status, 405);
  assertSpec('repoMergePullRequest', blocked);
  assert.match(JSON.stringify(blocked.error), 'open dependency');
  assert.is(await disk.tip(f.dir, 'main'), f.base, 'nothing was merged');
  assert.is(await isMerged(app, f.repo, f.pr.number, r.reader.auth), 404);
  await editIssue(app, f.repo, blocker.number, r.writer, { state: 'closed' });
  await mergeOk(f.repo, f.pr, { Do: 'merge' });
});

test('401 anonymous, 403 token without write:repository, 404 hidden repository or no such pull, 423 archived, 422 bad Do', async () => {
  const f = await fixture({ priv: true });
  assert.is((await mergePull(app, f.repo, undefined, f.pr.number, { Do: 'merge' })).response.status, 401);
  const scoped = await wrongScope(app, r.writer, true);
  assert.is((await mergePull(app, f.repo, scoped, f.pr.number, { Do: 'merge' })).response.status, 403);
  assert.is((await mergePull(app, f.repo, r.outsider.auth, f.pr.number, { Do: 'merge' })).response.status, 404, 'outsider');
  assert.is((await mergePull(app, f.repo, r.writer.auth, 999, { Do: 'merge' })).response.status, 404, 'no such pull');
  assert.is(await isMerged(app, f.repo, f.pr.number, r.outsider.auth), 404);
  assert.is(await isMerged(app, f.repo, f.pr.number, r.reader.auth), 404, 'not merged');
  const bad = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'octopus' } as never);
  assert.is(bad.response.status, 422);
  await setArchived(app, f.repo, r.owner);
  const archived = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge' });
  assert.is(archived.response.status, 423);
  assert.is((await getPull(app, f.repo, f.pr.number, r.reader.auth)).merged, false);
});

test('409: head_commit_id not the head\'s tip; conflicting branches (then mergeable is false)', async () => {
  const f = await fixture();
  const stale = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge', head_commit_id: f.base });
  assert.is(stale.response.status, 409);
  assert.match((stale.error as { message: string }).message, 'head out of date');
  await mergeOk(f.repo, f.pr, { Do: 'merge', head_commit_id: f.head });

  const c = await fixture();
  await patch(app, c.repo, r.writer, changeLine('f.txt', 'base', 'theirs'), { branch: c.branch });
  await patch(app, c.repo, r.writer, changeLine('f.txt', 'base', 'ours'));
  const tip = await disk.tip(c.dir, 'main');
  for (const Do of ['merge', 'squash', 'rebase', 'rebase-merge'] as const) {
    const res = await mergePull(app, c.repo, r.writer.auth, c.pr.number, { Do });
    assert.is(res.response.status, 409, Do);
    assertSpec('repoMergePullRequest', res);
  }
  assert.is(await disk.tip(c.dir, 'main'), tip, 'the base did not move');
  const pr = await getPull(app, c.repo, c.pr.number);
  assert.equal([pr.merged, pr.mergeable], [false, false]);
});

test('delete_branch_after_merge: the head branch goes, unless another open pull request uses it', async () => {
  const f = await fixture({ diverge: true });
  await mergeOk(f.repo, f.pr, { Do: 'merge', delete_branch_after_merge: true });
  assert.is(await disk.tip(f.dir, f.branch), undefined, 'deleted');
  assert.ok((await eventsOf(app, f.repo.id)).kinds.includes('delete'));

  const k = await fixture({ diverge: true });
  await patch(app, k.repo, r.writer, addFile('c.txt', ['3']), { newBranch: 'child', branch: k.branch });
  await app.client(r.writer.auth).POST('/repos/{owner}/{repo}/pulls', { params: { path: k.repo.path }, body: { head: 'child', base: k.branch, title: 'stacked' } });
  await mergeOk(k.repo, k.pr, { Do: 'merge', delete_branch_after_merge: true });
  assert.is(await disk.tip(k.dir, k.branch), k.head, 'kept: the base of another open pull request');

  const d = await fixture({ diverge: true });
  await editRepo(app, d.repo, { default_delete_branch_after_merge: true });
  await mergeOk(d.repo, d.pr, { Do: 'squash' });
  assert.is(await disk.tip(d.dir, d.branch), undefined, 'the repository default applies when the field is absent');
});

test('20 concurrent merges and pushes to one base branch lose nothing', async () => {
  const made = await repoFor(app, r);
  const repo: Repo = { ...made, path: pathOf(made) };
  const dir = dirOf(app, repo);
  await patch(app, repo, r.writer, addFile('f.txt', ['base']));
  const pulls: PullRequest[] = [];
  for (let i = 0; i < 10; i++) {
    await patch(app, repo, r.writer, addFile(`p${i}.txt`, [String(i)]), { newBranch: `b${i}` });
    pulls.push(await openPull(app, repo, r.writer, `b${i}`));
  }
  const heads = await Promise.all(pulls.map((_, i) => disk.tip(dir, `b${i}`)));
  const styles = ['merge', 'squash', 'rebase', 'rebase-merge'] as const;
  const results = await Promise.all([
    ...pulls.map((p, i) => mergePull(app, repo, r.writer.auth, p.number, { Do: styles[i % styles.length]! }).then((res) => res.response.status)),
    ...Array.from({ length: 10 }, (_, i) => patch(app, repo, r.writer, addFile(`d${i}.txt`, [String(i)])).then(() => 201)),
  ]);
  assert.equal(results, [...Array(10).fill(200), ...Array(10).fill(201)]);
  const files = await disk.files(dir, 'main');
  for (let i = 0; i < 10; i++) {
    assert.ok(files.includes(`p${i}.txt`), `pull ${i} on main`);
    assert.ok(files.includes(`d${i}.txt`), `push ${i} on main`);
  }
  for (const [i, p] of pulls.entries()) {
    const got = await getPull(app, repo, p.number);
    assert.ok(got.merged, `pull ${i} merged`);
    const sha = got.merge_commit_sha!;
    assert.ok((await disk.run(dir, ['merge-base', '--is-ancestor', sha, 'main']).then(() => true, () => false)), `merge commit of ${i} on main`);
    if (i % styles.length === 0) assert.ok(await disk.run(dir, ['merge-base', '--is-ancestor', heads[i]!, 'main']).then(() => true, () => false));
  }
});

test('a merge whose process died after moving the base is completed once; one that died before is released', async () => {
  const f = await fixture({ diverge: true });
  const hour = new Date(Date.now() - 3600_000).toISOString();
  // What a killed merge leaves: the claim with its commit, and the base already moved to it.
  const tree = await expectedMergeTree(f.dir, f.base, f.head);
  const sha = (await disk.run(f.dir, ['commit-tree', tree, '-p', f.base, '-p', f.head, '-m', 'merge'])).trim();
  await disk.run(f.dir, ['update-ref', 'refs/heads/main', sha, f.base]);
  const { db } = app.services.deps;
  await db.update(pullRequests).set({ mergePending: { byId: r.writer.id, at: hour, sha, from: f.base, style: 'merge' } }).where(eq(pullRequests.id, f.pr.id));
  const res = await mergePull(app, f.repo, r.owner.auth, f.pr.number, { Do: 'merge' });
  assert.is(res.response.status, 405, 'already merged (by the interrupted merge)');
  const pr = await getPull(app, f.repo, f.pr.number);
  assert.equal([pr.merged, pr.merge_commit_sha, pr.merged_by?.login], [true, sha, r.writer.username]);
  assert.is(await disk.tip(f.dir, 'main'), sha, 'merged once');
  const kinds = (await eventsOf(app, f.repo.id)).kinds;
  assert.equal(kinds.slice(-2), ['push', 'pull_request/closed']);

  const g = await fixture({ diverge: true });
  await db.update(pullRequests).set({ mergePending: { byId: r.writer.id, at: hour, sha: '1'.repeat(40), from: g.base, style: 'merge' } }).where(eq(pullRequests.id, g.pr.id));
  await mergeOk(g.repo, g.pr, { Do: 'merge' });
  assert.is((await getPull(app, g.repo, g.pr.number)).merged_by?.login, r.writer.username);

  const h = await fixture({ diverge: true });
  await db.update(pullRequests).set({ mergePending: { byId: r.writer.id, at: new Date().toISOString(), style: 'merge' } }).where(eq(pullRequests.id, h.pr.id));
  const busy = await mergePull(app, h.repo, r.writer.auth, h.pr.number, { Do: 'merge' });
  assert.is(busy.response.status, 409, 'a merge under way');
});

test('refs/pull/<index>/head follows the head branch and can be fetched with git', async () => {
  const f = await fixture();
  assert.is(await disk.rev(f.dir, `refs/pull/${f.pr.number}/head`), f.head);
  const moved = await patch(app, f.repo, r.writer, addFile('z.txt', ['z']), { branch: f.branch });
  assert.is(await disk.rev(f.dir, `refs/pull/${f.pr.number}/head`), moved);
  const ws = gitWorkspace(app);
  try {
    const clone = await ws.clone(ws.remote(r.reader, f.repo.path.owner, f.repo.path.repo));
    await ws.must(['fetch', '-q', 'origin', `refs/pull/${f.pr.number}/head`], clone);
    assert.is((await ws.must(['rev-parse', 'FETCH_HEAD'], clone)).trim(), moved);
  } finally {
    ws.close();
  }
});

test.run();
