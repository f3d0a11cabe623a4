// Creating a plain issue in one statement (#41, services/issues/createAlone.ts): every effect of the
// transaction it stands in for happens once (number, counters, event, feed row, tally), and whatever
// the statement cannot do alone (a hook, a watcher, a mention, a reference, a block) falls back to the
// transaction with its effect. Numbers stay 1..N without a gap or a repeat when writers race, and a
// statement that fails writes nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { and, asc, eq } from 'drizzle-orm';
import { startApp, type TestApp } from '../helpers/harness.js';
import { eventsOf, feed } from '../helpers/events.js';
import { eventComments, getIssue, newLabel, type Issue, type Repo } from '../helpers/issues.js';
import { actor, addCollaborator, getRepo, pathOf, userRepo, type Actor } from '../helpers/repos.js';
import { hookBody, repoHook } from '../helpers/hooks.js';
import { threadRows, watch } from '../helpers/notifications.js';
import { block } from '../helpers/blocks.js';
import { activities, activityTallies, hookDeliveries, issueCounters, issueMentions, issues } from '../../src/db/schema/index.js';
import { issuesCreated } from '../../src/metrics.js';

let app: TestApp;
let owner: Actor;
let other: Actor;

test.before(async () => {
  app = await startApp();
  [owner, other] = await Promise.all([actor(app), actor(app)]);
});
test.after(async () => {
  await app.close();
});

const db = () => app.services.deps.db;

/** A fresh repository of `owner` (who watches it) with `other` as a writer. */
async function newRepo(): Promise<Repo> {
  const repo = await userRepo(app, owner);
  await addCollaborator(app, repo, other, 'write');
  return { ...repo, path: pathOf(repo) };
}

const create = (repo: Repo, as: Actor, body: Record<string, unknown>) =>
  app.client(as.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: repo.path }, body: { title: 'plain', ...body } as never });

async function made(repo: Repo, as: Actor, body: Record<string, unknown> = {}): Promise<Issue> {
  const r = await create(repo, as, body);
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  return r.data!;
}

/** Issues created since the last call, by way (`statement` or `transaction`). */
async function ways(): Promise<Record<string, number>> {
  const now = Object.fromEntries((await issuesCreated.get()).values.map((v) => [String(v.labels.way), v.value]));
  const out = { statement: (now.statement ?? 0) - (seen.statement ?? 0), transaction: (now.transaction ?? 0) - (seen.transaction ?? 0) };
  seen = now;
  return out;
}
let seen: Record<string, number> = {};

const openIssues = async (repo: Repo) => (await getRepo(app, repo.path.owner, repo.path.repo, owner.auth)).data!.open_issues_count;

/** The repository's issues_opened events' data, oldest first. */
const openedData = async (repo: Repo) => (await eventsOf(app, repo.id)).rows.filter((e) => e.type === 'issues' && e.action === 'opened').map((e) => e.data);

test('a plain issue is one statement: its number, the counters, the event, the feed row and its tally, as the transaction writes them', async () => {
  const repo = await newRepo();
  await ways();
  const first = await made(repo, owner, { title: 'first', body: 'no one to tell' });
  assert.equal(await ways(), { statement: 1, transaction: 0 }, 'written in one statement');
  // The same repository, an issue the statement cannot write (a label): the transaction's rows to compare.
  const label = await newLabel(app, repo, owner, { name: 'l' });
  const second = await made(repo, owner, { title: 'second', labels: [label.id] });
  assert.equal(await ways(), { statement: 0, transaction: 1 }, 'a label needs the transaction');
  const third = await made(repo, owner, { title: 'third', closed: true, due_date: '2031-05-06T07:08:09Z', ref: 'main' });
  assert.equal(await ways(), { statement: 1, transaction: 0 });
  assert.equal([first.number, second.number, third.number], [1, 2, 3]);
  assert.equal(await getIssue(app, repo, 1, owner), first, 'the answer is the issue as read');
  assert.equal(await getIssue(app, repo, 3, owner), third);
  assert.is(third.state, 'closed');
  assert.ok(third.closed_at);
  assert.is(Date.parse(third.due_date!), Date.parse('2031-05-06T07:08:09Z'));
  assert.is(third.ref, 'main');
  const ids = new Map((await db().select().from(issues).where(eq(issues.repoId, repo.id))).map((i) => [i.index, i.id]));
  assert.equal(await openedData(repo), [first, second, third].map((i) => ({
    action: 'opened', issueId: ids.get(i.number), activity: { opType: 'create_issue', issueId: ids.get(i.number), content: `${i.number}|${i.title}` },
  })), 'the same event data either way');
  const rows = await db().select().from(activities).where(eq(activities.repoId, repo.id)).orderBy(asc(activities.id));
  const events = (await eventsOf(app, repo.id)).rows.filter((e) => e.type === 'issues');
  assert.equal(rows.filter((a) => a.opType === 'create_issue').map(({ id: _id, ...a }) => a), [first, second, third].map((i, k) => ({
    eventId: events[k]!.id, opType: 'create_issue', actUserId: owner.id, repoId: repo.id, ownerId: owner.id, issueId: ids.get(i.number)!,
    commentId: null, refName: '', content: `${i.number}|${i.title}`, isPrivate: false, createdAt: events[k]!.createdAt,
  })), 'one feed row each, at its event\'s time');
  const [tally] = await db().select().from(activityTallies).where(and(eq(activityTallies.repoId, repo.id), eq(activityTallies.actUserId, owner.id)));
  assert.is(tally!.n, rows.length, 'the tally counts every feed row');
  const f = await feed(app, repo.path, owner.auth);
  assert.is(f.status, 200);
  assert.equal(f.data!.filter((a) => a.op_type === 'create_issue').map((a) => a.content), ['3|third', '2|second', '1|first']);
  assert.is(await openIssues(repo), 2, 'open_issues_count: two open, one closed');
  const [counter] = await db().select().from(issueCounters).where(eq(issueCounters.repoId, repo.id));
  assert.is(counter!.lastIndex, 3);
});

test('a hook of the repository: the transaction writes its delivery (and only issues made while it exists are heard)', async () => {
  const repo = await newRepo();
  await made(repo, owner, { title: 'before the hook' });
  const hook = await repoHook(app, owner.auth, repo.path, hookBody('http://127.0.0.1:9/', { events: ['issues'] }));
  await ways();
  const heard = await made(repo, owner, { title: 'heard' });
  assert.equal(await ways(), { statement: 0, transaction: 1 });
  const deliveries = await db().select().from(hookDeliveries).where(eq(hookDeliveries.hookId, hook.id));
  assert.is(deliveries.length, 1, 'one delivery');
  const payload = JSON.parse(deliveries[0]!.payload) as { action: string; issue: { number: number; title: string } };
  assert.is(payload.action, 'opened');
  assert.is(payload.issue.number, heard.number);
  assert.is(payload.issue.title, 'heard');
});

test('another watcher of the repository is told: the transaction writes the thread', async () => {
  const repo = await newRepo();
  await watch(app, other, repo.path);
  await ways();
  const i = await made(repo, owner, { title: 'for the watcher' });
  assert.equal(await ways(), { statement: 0, transaction: 1 });
  const threads = (await threadRows(app, other.id)).filter((t) => t.repoId === repo.id);
  assert.is(threads.length, 1, 'the watcher has a thread');
  const [row] = await db().select().from(issues).where(and(eq(issues.repoId, repo.id), eq(issues.index, i.number)));
  assert.is(threads[0]!.issueId, row!.id);
});

test('the owner, watching the repository they made, is told of an issue by someone else: by the statement, as the transaction tells', async () => {
  const repo = await newRepo();
  await ways();
  const byOther = await made(repo, other, { title: 'for the owner' });
  assert.equal(await ways(), { statement: 1, transaction: 0 }, 'the owner\'s thread is the statement\'s');
  // The same with a label (the transaction): the two threads must be alike.
  const label = await newLabel(app, repo, owner, { name: 'l' });
  const labelled = await made(repo, other, { title: 'labelled', labels: [label.id] });
  assert.equal(await ways(), { statement: 0, transaction: 1 });
  const rows = new Map((await db().select().from(issues).where(eq(issues.repoId, repo.id))).map((i) => [i.index, i.id]));
  const events = (await eventsOf(app, repo.id)).rows.filter((e) => e.type === 'issues');
  const threads = (await threadRows(app, owner.id)).filter((t) => t.repoId === repo.id).sort((a, b) => a.id - b.id);
  assert.equal(threads.map(({ id: _id, ...t }) => t), [byOther, labelled].map((i, k) => ({
    userId: owner.id, repoId: repo.id, subjectType: 'Issue', issueId: rows.get(i.number)!, commitId: null, commentId: null, status: 'unread',
    updatedBy: other.id, createdAt: events[k]!.createdAt, updatedAt: events[k]!.createdAt,
  })), 'one thread each, at its event\'s time');
  assert.is((await threadRows(app, other.id)).filter((t) => t.repoId === repo.id).length, 0, 'the poster is not told');
  // The owner opening an issue tells no one (they are the only watcher).
  await made(repo, owner, { title: 'by the owner' });
  assert.equal(await ways(), { statement: 1, transaction: 0 });
  assert.is((await threadRows(app, owner.id)).filter((t) => t.repoId === repo.id).length, 2);
  // An owner who may not sign in is told nothing (readers()).
  await app.sqlFromElsewhere(`update users set prohibit_login = true where id = ${owner.id}`);
  try {
    await made(repo, other, { title: 'owner away' });
    assert.equal(await ways(), { statement: 1, transaction: 0 });
  } finally {
    await app.sqlFromElsewhere(`update users set prohibit_login = false where id = ${owner.id}`);
  }
  assert.is((await threadRows(app, owner.id)).filter((t) => t.repoId === repo.id).length, 2, 'no thread for an owner who may not sign in');
});

test('a mention is recorded and told; a reference writes the other issue\'s timeline: both by the transaction', async () => {
  const repo = await newRepo();
  const target = await made(repo, owner, { title: 'target' });
  await ways();
  const mentioning = await made(repo, owner, { title: 'mention', body: `hello @${other.username}` });
  assert.equal(await ways(), { statement: 0, transaction: 1 });
  const [m] = await db().select().from(issues).where(and(eq(issues.repoId, repo.id), eq(issues.index, mentioning.number)));
  assert.equal((await db().select().from(issueMentions).where(eq(issueMentions.issueId, m!.id))).map((r) => r.userId), [other.id]);
  assert.ok((await threadRows(app, other.id)).some((t) => t.issueId === m!.id), 'the mentioned user is told');
  await made(repo, owner, { title: 'refers', body: `see #${target.number}` });
  assert.equal(await ways(), { statement: 0, transaction: 1 });
  const [t] = await db().select().from(issues).where(and(eq(issues.repoId, repo.id), eq(issues.index, target.number)));
  assert.is((await eventComments(app, t!.id, 'issue_ref')).length, 1, 'the referenced issue has its entry');
});

test('a poster the owner blocked: 403, no number taken, nothing written', async () => {
  const repo = await newRepo();
  const blocked = await actor(app);
  await made(repo, owner, { title: 'one' });
  await block(app, owner, blocked.username);
  const before = (await eventsOf(app, repo.id)).rows.length;
  await ways();
  const r = await create(repo, blocked, { title: 'refused' });
  assert.is(r.response.status, 403);
  assert.equal(await ways(), { statement: 0, transaction: 0 });
  assert.is((await eventsOf(app, repo.id)).rows.length, before, 'no event');
  const next = await made(repo, owner, { title: 'two' });
  assert.is(next.number, 2, 'no gap');
  assert.is(await openIssues(repo), 2);
});

test('a statement that fails writes nothing: no number, no issue, no event, no counter', async () => {
  const repo = await newRepo();
  await made(repo, owner, { title: 'one' });
  const before = (await eventsOf(app, repo.id)).rows.length;
  // The feed row, the statement's last write but one, refused by the database.
  await app.sqlFromElsewhere(`alter table activities add constraint create_alone_test check (content <> '2|boom') not valid`);
  try {
    await ways();
    const r = await create(repo, owner, { title: 'boom' });
    assert.is(r.response.status, 500);
    assert.equal(await ways(), { statement: 0, transaction: 0 });
  } finally {
    await app.sqlFromElsewhere('alter table activities drop constraint create_alone_test');
  }
  assert.equal((await db().select().from(issues).where(eq(issues.repoId, repo.id))).map((i) => i.title), ['one']);
  assert.is((await eventsOf(app, repo.id)).rows.length, before, 'no event');
  assert.is(await openIssues(repo), 1);
  const next = await made(repo, owner, { title: 'two' });
  assert.is(next.number, 2, 'the number was not taken');
});

test('30 writers at once on one repository: numbers 1..30, every counter 30; and mixed with transactions, still no gap', async () => {
  const repo = await newRepo();
  await ways();
  const all = await Promise.all(Array.from({ length: 30 }, (_, k) => made(repo, owner, { title: `w${k}` })));
  assert.equal(all.map((i) => i.number).sort((a, b) => a - b), Array.from({ length: 30 }, (_, k) => k + 1));
  assert.equal(await ways(), { statement: 30, transaction: 0 });
  assert.is(await openIssues(repo), 30);
  assert.is((await openedData(repo)).length, 30, '30 events');
  assert.is((await db().select().from(activities).where(eq(activities.repoId, repo.id))).filter((a) => a.opType === 'create_issue').length, 30, '30 feed rows');
  const [tally] = await db().select().from(activityTallies).where(and(eq(activityTallies.repoId, repo.id), eq(activityTallies.actUserId, owner.id)));
  assert.is(tally!.n, 31, 'the tally: the repository\'s creation and 30 issues');
  const f = await feed(app, repo.path, owner.auth);
  assert.is(Number(f.total), (await db().select().from(activities).where(eq(activities.repoId, repo.id))).length, 'the feed\'s total, from the tally');
  // Statements and transactions racing for the same counter.
  const label = await newLabel(app, repo, owner, { name: 'mixed' });
  const mixed = await Promise.all(Array.from({ length: 20 }, (_, k) => made(repo, owner, k % 2 ? { title: `s${k}` } : { title: `t${k}`, labels: [label.id] })));
  assert.equal(mixed.map((i) => i.number).sort((a, b) => a - b), Array.from({ length: 20 }, (_, k) => k + 31));
  assert.equal(await ways(), { statement: 10, transaction: 10 });
  assert.is(await openIssues(repo), 50);
  const [counter] = await db().select().from(issueCounters).where(eq(issueCounters.repoId, repo.id));
  assert.is(counter!.lastIndex, 50);
});

test.run();
