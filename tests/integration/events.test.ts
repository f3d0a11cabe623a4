// Every change anvil makes is recorded once, in its own transaction: the event rows (webhook event type
// and action) and, where the change has one, its activity-feed row with Gitea's op_type, content and ref.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withTx } from '../../src/db/tx.js';
import { activities, events, pendingPushes } from '../../src/db/schema/index.js';
import { recordEvent } from '../../src/services/events/record.js';
import { pushJournalPath } from '../../src/services/git/gitTransport.js';
import { commitTo, dirOf, tipOf } from '../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { eventsOf, feed, gitWorkspace, opTypes } from '../helpers/events.js';
import { eventually } from '../helpers/hooks.js';
import { editIssue, newComment, newIssue, newLabel, newMilestone, type Repo } from '../helpers/issues.js';
import { addFile, openPull, patch } from '../helpers/pulls.js';
import { actor, pathOf, siteAdmin, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let admin: Actor;
let ws: ReturnType<typeof gitWorkspace>;

test.before(async () => {
  app = await startApp();
  [owner, admin] = await Promise.all([actor(app), siteAdmin(app)]);
  ws = gitWorkspace(app);
});
test.after(async () => {
  ws?.close();
  await app?.close();
});

const repoOf = async (body: Parameters<typeof userRepo>[2] = {}): Promise<Repo> => {
  const r = await userRepo(app, owner, { auto_init: true, ...body });
  return { ...r, path: pathOf(r) };
};
const repoFeed = async (repo: Repo) => {
  const f = await feed(app, repo.path, admin.auth, { limit: '50' });
  assert.is(f.status, 200, f.text);
  return f.data!;
};
/** Writes pending push `id`'s journal as git's reference-transaction hook would have. */
const writeJournal = (id: number, lines: string[]) => {
  const path = pushJournalPath(app.config.dataDir, id);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
};
/** The kinds recorded since `from` events of the repository. */
const since = async (repo: Repo, from: number) => (await eventsOf(app, repo.id)).kinds.slice(from);

test('repository: create_repo, rename_repo, edit, transfer_repo; delete is recorded and empties its feed', async () => {
  const repo = await repoOf();
  assert.equal((await eventsOf(app, repo.id)).kinds, ['repository/created']);
  assert.equal(opTypes(await repoFeed(repo)), ['create_repo']);

  const renamed = `${repo.name}-new`;
  let r = await app.client(owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: repo.path }, body: { name: renamed } });
  assert.is(r.response.status, 200);
  r = await app.client(owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: renamed } }, body: { description: 'd' } });
  assert.is(r.response.status, 200);
  const moved: Repo = { ...repo, name: renamed, path: { owner: owner.username, repo: renamed } };
  assert.equal(await since(moved, 1), ['repository/renamed', 'repository/edited']);
  const [rename] = (await repoFeed(moved)).filter((a) => a.op_type === 'rename_repo');
  assert.is(rename!.content, repo.name, 'rename_repo content is the old name');
  assert.is(rename!.act_user.login, owner.username);

  const org = await app.client(owner.auth).POST('/orgs', { body: { username: `evorg${Date.now().toString(36)}` } });
  assert.is(org.response.status, 201);
  const t = await app.client(owner.auth).POST('/repos/{owner}/{repo}/transfer', { params: { path: moved.path }, body: { new_owner: org.data!.username } });
  assert.is(t.response.status, 202, JSON.stringify(t.error));
  const inOrg: Repo = { ...moved, path: { owner: org.data!.username, repo: renamed } };
  const transferred = (await repoFeed(inOrg)).find((a) => a.op_type === 'transfer_repo');
  assert.is(transferred?.content, `${owner.username}/${renamed}`);
  const orgFeed = await feed(app, { org: org.data!.username }, admin.auth);
  assert.equal(opTypes(orgFeed.data), ['transfer_repo'], 'the org feed starts with the transfer');

  const d = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: inOrg.path } });
  assert.is(d.response.status, 204);
  assert.equal((await eventsOf(app, repo.id)).kinds.at(-1), 'repository/deleted', 'the deletion is recorded');
  const left = await app.services.deps.db.select().from(activities).where(eq(activities.repoId, repo.id));
  assert.is(left.length, 0, "a deleted repository's feed rows go with it");
});

test('git through the API: branch create/delete, diffpatch, tag', async () => {
  const repo = await repoOf();
  const b = await app.client(owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: 'feature' } });
  assert.is(b.response.status, 201);
  assert.equal(await since(repo, 1), ['create', 'push'], 'a new branch is a create and a push');
  const created = (await eventsOf(app, repo.id)).rows[1]!;
  assert.equal({ refType: created.data.refType, ref: created.data.ref }, { refType: 'branch', ref: 'feature' });

  const sha = await patch(app, repo, owner, addFile('a.txt', ['one']));
  const push = (await eventsOf(app, repo.id)).rows.at(-1)!;
  assert.is(push.type, 'push');
  const data = push.data as { ref: string; after: string; totalCommits: number; commits: Array<{ id: string; added: string[] }> };
  assert.is(data.ref, 'refs/heads/main');
  assert.is(data.after, sha);
  assert.is(data.totalCommits, 1);
  assert.equal(data.commits.map((c) => [c.id, c.added]), [[sha, ['a.txt']]]);

  const tag = await app.client(owner.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: repo.path }, body: { tag_name: 'v1.0', message: 'release' } });
  assert.is(tag.response.status, 201);
  const del = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...repo.path, branch: 'feature' } } });
  assert.is(del.response.status, 204);
  assert.equal(await since(repo, 4), ['create', 'push', 'delete']);

  const f = await repoFeed(repo);
  assert.equal(opTypes(f), ['delete_branch', 'push_tag', 'commit_repo', 'create_repo'], 'newest first; an API branch from an existing commit has no feed row');
  assert.is(f[0]!.ref_name, 'refs/heads/feature');
  assert.is(f[1]!.ref_name, 'refs/tags/v1.0');
  const content = JSON.parse(f[2]!.content) as { Len: number; Commits: Array<{ Sha1: string }> };
  assert.is(content.Len, 1);
  assert.is(content.Commits[0]!.Sha1, sha);
});

test('git push over HTTP: commits, new branch, tag, deletions; no pending push is left', async () => {
  const repo = await repoOf();
  const dir = await ws.clone(ws.remote(owner, repo.path.owner, repo.path.repo));
  const c1 = await ws.commit(dir, 'one.txt', '1', 'first');
  const c2 = await ws.commit(dir, 'two.txt', '2', 'second');
  await ws.must(['push', '-q', 'origin', 'main'], dir);
  let rows = (await eventsOf(app, repo.id)).rows;
  const push = rows.at(-1)!;
  assert.is(push.type, 'push');
  assert.is(push.actorId, owner.id);
  const data = push.data as { totalCommits: number; commits: Array<{ id: string; message: string; added: string[] }> };
  assert.is(data.totalCommits, 2);
  assert.equal(data.commits.map((c) => c.id), [c2, c1], 'newest first');
  assert.equal(data.commits[0]!.added, ['two.txt']);

  await ws.must(['checkout', '-q', '-b', 'topic'], dir);
  const c3 = await ws.commit(dir, 'three.txt', '3', 'third');
  await ws.must(['push', '-q', 'origin', 'topic'], dir);
  await ws.must(['tag', 'v2'], dir);
  await ws.must(['push', '-q', 'origin', 'v2'], dir);
  await ws.must(['push', '-q', 'origin', ':refs/tags/v2'], dir);
  await ws.must(['push', '-q', 'origin', ':topic'], dir);
  rows = (await eventsOf(app, repo.id)).rows;
  assert.equal(rows.slice(2).map((r) => r.type), ['create', 'push', 'create', 'push', 'delete', 'delete']);
  assert.equal((rows[3]!.data as { commits: Array<{ id: string }> }).commits.map((c) => c.id), [c3], 'a new branch brings only its own commits');
  assert.equal(opTypes(await repoFeed(repo)), ['delete_branch', 'delete_tag', 'push_tag', 'commit_repo', 'commit_repo', 'create_repo']);
  const pending = await app.services.deps.db.select().from(pendingPushes).where(eq(pendingPushes.repoId, repo.id));
  assert.is(pending.length, 0);
});

test('a push whose process died after git moved the refs is recorded from its journal once its lease lapsed', async () => {
  const repo = await repoOf();
  const dir = dirOf(app, repo);
  const before = tipOf(dir, 'main')!;
  const zero = '0'.repeat(before.length);
  // What the dead process had written before running receive-pack: its row, lease lapsed.
  const [row] = await app.services.deps.db.insert(pendingPushes).values({
    repoId: repo.id, actorId: owner.id, before: { 'refs/heads/main': before }, holder: 'gone-host:1:dead', leaseUntil: new Date(Date.now() - 1000),
  }).returning();
  const after = commitTo(dir, 'main', { 'late.txt': 'arrived' }, { message: 'pushed before the crash' });
  // Another push moved `other` meanwhile and recorded itself: not this push's change.
  commitTo(dir, 'other', { 'x.txt': 'x' }, { message: 'someone else' });
  // `half` was prepared by git, then git was killed: it landed (the ref is there), so it counts; `lost`
  // was prepared and never landed.
  const half = commitTo(dir, 'half', { 'h.txt': 'h' }, { message: 'half' });
  const lost = commitTo(dir, 'scratch', { 's.txt': 's' }, { message: 'never landed' });
  writeJournal(row!.id, [
    `prepared ${before} ${after} refs/heads/main`,
    `committed ${before} ${after} refs/heads/main`,
    `prepared ${zero} ${half} refs/heads/half`,
    `prepared ${zero} ${lost} refs/heads/lost`,
    `prepared ${zero} ${lost} refs/heads/refused`,
    `aborted ${zero} ${lost} refs/heads/refused`,
  ]);
  const from = (await eventsOf(app, repo.id)).rows.length;
  const n = await app.services.gitTransport.recoverPendingPushes();
  assert.is(n, 1);
  const rows = (await eventsOf(app, repo.id)).rows.slice(from);
  assert.equal(rows.map((r) => [r.type, (r.data as { ref: string }).ref]), [['create', 'half'], ['push', 'refs/heads/half'], ['push', 'refs/heads/main']]);
  const push = rows.at(-1)!;
  assert.equal([(push.data as { before: string }).before, (push.data as { after: string }).after], [before, after]);
  assert.is((await app.services.deps.db.select().from(pendingPushes).where(eq(pendingPushes.repoId, repo.id))).length, 0);
  assert.not.ok(existsSync(pushJournalPath(app.config.dataDir, row!.id)), 'the journal goes with the row');
  assert.is(await app.services.gitTransport.recoverPendingPushes(), 0, 'once');
});

test('a push that makes git want a gc records only its own refs (gc packs every ref: none of that is the push)', async () => {
  const repo = await repoOf();
  const dir = dirOf(app, repo);
  // git's auto gc wants to run once a push leaves two packs (every push keeps its pack here).
  for (const [k, v] of [['gc.autoPackLimit', '1'], ['receive.unpackLimit', '1'], ['gc.autoDetach', 'false']]) {
    await ws.must(['config', k!, v!], dir);
  }
  const clone = await ws.clone(ws.remote(owner, repo.path.owner, repo.path.repo));
  await ws.must(['branch', 'side'], clone);
  await ws.must(['tag', 'v0'], clone);
  await ws.must(['push', '-q', 'origin', 'side', 'v0'], clone);
  await ws.commit(clone, 'f.txt', 'f', 'first pack');
  await ws.must(['push', '-q', 'origin', 'main'], clone);
  const from = (await eventsOf(app, repo.id)).rows.length;
  await ws.commit(clone, 'g.txt', 'g', 'second pack: gc wanted');
  await ws.must(['push', '-q', 'origin', 'main'], clone);
  const rows = (await eventsOf(app, repo.id)).rows.slice(from);
  assert.equal(rows.map((r) => [r.type, (r.data as { ref: string }).ref]), [['push', 'refs/heads/main']]);
  // The upkeep still happens, after the push is recorded.
  await eventually(() => existsSync(join(dir, 'packed-refs')) && readFileSync(join(dir, 'packed-refs'), 'utf8').includes('refs/heads/side'), 'refs packed by gc --auto');
});

test('journal files left by a process that died after recording its push are swept; a pending push keeps its journal', async () => {
  const repo = await repoOf();
  const [row] = await app.services.deps.db.insert(pendingPushes).values({
    repoId: repo.id, actorId: owner.id, before: {}, holder: 'busy-host:1:alive', leaseUntil: new Date(Date.now() + 60_000),
  }).returning();
  writeJournal(row!.id, []);
  writeJournal(row!.id + 1_000_000, []);
  const old = new Date(Date.now() - 2 * 3600_000);
  for (const id of [row!.id, row!.id + 1_000_000]) utimesSync(pushJournalPath(app.config.dataDir, id), old, old);
  assert.is(await app.services.gitTransport.sweepJournals(), 1);
  assert.ok(existsSync(pushJournalPath(app.config.dataDir, row!.id)), 'the pending push keeps its journal');
  assert.not.ok(existsSync(pushJournalPath(app.config.dataDir, row!.id + 1_000_000)));
  await app.services.deps.db.delete(pendingPushes).where(eq(pendingPushes.id, row!.id));
});

test('a pending push whose lease has not lapsed is left to its process', async () => {
  const repo = await repoOf();
  const dir = dirOf(app, repo);
  const before = tipOf(dir, 'main')!;
  const [row] = await app.services.deps.db.insert(pendingPushes).values({
    repoId: repo.id, actorId: owner.id, before: { 'refs/heads/main': before }, holder: 'busy-host:1:alive', leaseUntil: new Date(Date.now() + 60_000),
  }).returning();
  assert.is(await app.services.gitTransport.recoverPendingPushes(), 0);
  await app.services.deps.db.delete(pendingPushes).where(eq(pendingPushes.id, row!.id));
});

test('issues: open, edit, milestone, assignees, close, reopen, comments', async () => {
  const repo = await repoOf();
  const issue = await newIssue(app, repo, owner, { title: 'bug' });
  const milestone = await newMilestone(app, repo, owner);
  const start = (await eventsOf(app, repo.id)).kinds.length;
  await editIssue(app, repo, issue.number, owner, { title: 'a bug', body: 'details' });
  await editIssue(app, repo, issue.number, owner, { milestone: milestone.id });
  await editIssue(app, repo, issue.number, owner, { assignees: [owner.username] });
  await editIssue(app, repo, issue.number, owner, { state: 'closed' });
  await editIssue(app, repo, issue.number, owner, { state: 'open', assignees: [] });
  const comment = await newComment(app, repo, issue.number, owner, 'first words');
  const e = await app.client(owner.auth).PATCH('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id: comment.id } }, body: { body: 'better words' } });
  assert.is(e.response.status, 200);
  const d = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id: comment.id } } });
  assert.is(d.response.status, 204);
  assert.equal(await since(repo, start), [
    'issues/edited', 'issue_milestone/milestoned', 'issue_assign/assigned', 'issues/closed',
    'issues/reopened', 'issue_assign/unassigned',
    'issue_comment/created', 'issue_comment/edited', 'issue_comment/deleted',
  ]);
  const edited = (await eventsOf(app, repo.id)).rows[start]!;
  assert.equal(edited.data.changes, { title: { from: 'bug' }, body: { from: '' } });
  const f = await repoFeed(repo);
  assert.equal(opTypes(f), ['comment_issue', 'reopen_issue', 'close_issue', 'create_issue', 'create_repo']);
  assert.is(f[3]!.content, `${issue.number}|bug`);
  assert.is(f[0]!.content, `${issue.number}|first words`);
  assert.is(f[0]!.comment, null, 'a deleted comment is no longer shown');
  assert.is(f[0]!.comment_id, 0);
});

test('pull requests: open, labels, comment, close, reopen, synchronize', async () => {
  const repo = await repoOf();
  await patch(app, repo, owner, addFile('f.txt', ['x']), { newBranch: 'topic' });
  const pr = await openPull(app, repo, owner, 'topic');
  const label = await newLabel(app, repo, owner);
  const l0 = (await eventsOf(app, repo.id)).kinds.length;
  for (const labels of [[label.id], []]) {
    const r = await app.client(owner.auth).PATCH('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...repo.path, index: pr.number } }, body: { labels } });
    assert.is(r.response.status, 201);
  }
  assert.equal(await since(repo, l0), ['pull_request_label/label_updated', 'pull_request_label/label_cleared']);
  await newComment(app, repo, pr.number, owner, 'looks good');
  await editIssue(app, repo, pr.number, owner, { state: 'closed' });
  await editIssue(app, repo, pr.number, owner, { state: 'open' });
  const start = (await eventsOf(app, repo.id)).kinds.length;
  await patch(app, repo, owner, addFile('g.txt', ['y']), { branch: 'topic' });
  assert.equal(await since(repo, start), ['push', 'pull_request_sync/synchronized']);
  const f = await repoFeed(repo);
  assert.equal(opTypes(f).slice(0, 5), ['commit_repo', 'reopen_pull_request', 'close_pull_request', 'comment_pull', 'create_pull_request']);
  const comment = f.find((a) => a.op_type === 'comment_pull')!;
  assert.is(comment.comment?.body, 'looks good', 'a comment row carries its comment');
});

test('wiki: a new page is recorded', async () => {
  const repo = await repoOf();
  const r = await app.client(owner.auth).POST('/repos/{owner}/{repo}/wiki/new', {
    params: { path: repo.path }, body: { title: 'Home', content_base64: Buffer.from('hi').toString('base64') },
  });
  assert.is(r.response.status, 201);
  const last = (await eventsOf(app, repo.id)).rows.at(-1)!;
  assert.equal([last.type, last.action, last.data.page], ['wiki', 'created', 'Home']);
});

test('a rolled-back change records nothing', async () => {
  const repo = await repoOf();
  const before = (await eventsOf(app, repo.id)).rows.length;
  await withTx(app.services.deps.db, async (tx) => {
    await recordEvent(app.services.deps, tx, { type: 'issues', action: 'opened', issueId: 0, actorId: owner.id, repoId: repo.id, ownerId: owner.id, isPrivate: false, activity: { opType: 'create_issue' } });
    throw new Error('boom');
  }).catch(() => undefined);
  assert.is((await eventsOf(app, repo.id)).rows.length, before);
  const rows = await app.services.deps.db.select().from(activities).where(eq(activities.repoId, repo.id));
  assert.equal(rows.map((r) => r.opType), ['create_repo']);
  const all = await app.services.deps.db.select().from(events).where(eq(events.repoId, repo.id));
  assert.is(all.length, before);
});

test.run();
