// Closing keywords (#38): `fixes #12` in a commit pushed to the default branch, or in a merged pull
// request's body, closes issue 12 as a close by hand would (entry naming the commit, closed_at, counters,
// event, one webhook delivery); `reopens #12` reopens it. Pushes go over smart HTTP with the real git CLI.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../src/config.js';
import { pushFiles } from '../helpers/actions.js';
import { eventsOf, gitWorkspace } from '../helpers/events.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../helpers/hooks.js';
import { editIssue, editRepo, getIssue, newComment, newIssue, people, type People, type Repo } from '../helpers/issues.js';
import { addFile, mergePull, openPull, patch } from '../helpers/pulls.js';
import { addCollaborator, getRepo, pathOf, userRepo, type Actor } from '../helpers/repos.js';
import { eq } from 'drizzle-orm';
import type { components } from '../../generated/openapi.js';
import { hookDeliveries, hooks as hooksTable } from '../../src/db/schema/index.js';

type Entry = components['schemas']['TimelineComment'];

let app: TestApp;
let p: People;
let hooks: Receiver;

test.before(async () => {
  app = await startApp(fastHooks, { workers: true });
  p = await people(app);
  hooks = await receiver();
});
test.after(async () => {
  await hooks.close();
  await app.close();
});

/** An auto-initialised repository of `owner` (main) with p.writer and p.reader as collaborators. */
async function repoOf(owner: Actor = p.owner, opts: { private?: boolean } = {}): Promise<Repo> {
  const made = await userRepo(app, owner, { auto_init: true, private: !!opts.private });
  if (owner !== p.writer) await addCollaborator(app, made, p.writer, 'write');
  await addCollaborator(app, made, p.reader, 'read');
  return { ...made, path: pathOf(made) };
}

/** Commits a file with `message` on `branch` (main by default) and pushes it over smart HTTP as `as`. */
const push = (as: Actor, repo: Repo, message: string, branch = 'main') =>
  pushFiles(app, as, repo.path.owner, repo.path.repo, { [`f-${Math.random().toString(36).slice(2)}.txt`]: message }, { branch, message });

async function timeline(repo: Repo, index: number, types: string[]): Promise<Entry[]> {
  const r = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/timeline', { params: { path: { ...repo.path, index } } });
  assert.is(r.response.status, 200);
  return r.data!.filter((e) => types.includes(e.type));
}

const stateOf = async (repo: Repo, index: number) => (await getIssue(app, repo, index, p.owner)).state;
const openCount = async (repo: Repo) => (await getRepo(app, repo.path.owner, repo.path.repo, p.owner.auth)).data!.open_issues_count;

test('a push to the default branch closes the issue its commit fixes, as a close by hand: entry with the commit, closed_at, counters, event', async () => {
  const repo = await repoOf();
  const issue = await newIssue(app, repo, p.reader, { title: 'crash' });
  const other = await newIssue(app, repo, p.reader, { title: 'only mentioned' });
  assert.is(await openCount(repo), 2);
  const sha = await push(p.writer, repo, `Fix the crash\n\nFixes #${issue.number}, see #${other.number}`);
  const closed = await getIssue(app, repo, issue.number, p.owner);
  assert.is(closed.state, 'closed');
  assert.ok(closed.closed_at, 'closed_at is set');
  assert.is(await stateOf(repo, other.number), 'open', 'a mention without a keyword closes nothing');
  assert.is(await openCount(repo), 1, 'the repository counts one issue fewer open');
  const rows = await timeline(repo, issue.number, ['commit_ref', 'close']);
  assert.equal(rows.map((e) => [e.type, e.ref_commit_sha, e.user.login]), [['commit_ref', sha, p.writer.username], ['close', sha, p.writer.username]]);
  const { rows: recorded } = await eventsOf(app, repo.id);
  const closes = recorded.filter((e) => e.type === 'issues' && e.action === 'closed');
  assert.is(closes.length, 1);
  assert.is(closes[0]!.actorId, p.writer.id);
  // The issue's state is the API's: it can be reopened by hand, and a second push naming it changes nothing more.
  await push(p.writer, repo, `fixes #${issue.number} again`);
  assert.is((await timeline(repo, issue.number, ['close'])).length, 1, 'an issue closed already gets no second close');
});

test('a push to another branch only records the reference; the same commit reaching the default branch closes', async () => {
  const repo = await repoOf();
  const issue = await newIssue(app, repo, p.owner);
  const ws = gitWorkspace(app);
  try {
    const dir = await ws.clone(ws.remote(p.writer, repo.path.owner, repo.path.repo));
    await ws.must(['checkout', '-q', '-b', 'topic'], dir);
    const sha = await ws.commit(dir, 'topic.txt', 'x', `Resolves #${issue.number}`);
    await ws.must(['push', '-q', 'origin', 'topic'], dir);
    assert.is(await stateOf(repo, issue.number), 'open', 'pushed to topic');
    assert.equal((await timeline(repo, issue.number, ['commit_ref', 'close'])).map((e) => e.type), ['commit_ref']);
    await ws.must(['push', '-q', 'origin', 'topic:main'], dir);
    assert.is(await stateOf(repo, issue.number), 'closed', 'the commit reached main');
    const rows = await timeline(repo, issue.number, ['commit_ref', 'close']);
    assert.equal(rows.map((e) => [e.type, e.ref_commit_sha]), [['commit_ref', sha], ['close', sha]], 'one reference per commit, then the close');
  } finally {
    ws.close();
  }
});

test('reopen keywords reopen a closed issue; pull requests are never closed or reopened by a commit', async () => {
  const repo = await repoOf();
  const issue = await newIssue(app, repo, p.owner);
  await editIssue(app, repo, issue.number, p.owner, { state: 'closed' });
  await patch(app, repo, p.writer, addFile('pr.txt', ['x']), { newBranch: 'feature' });
  const pr = await openPull(app, repo, p.writer, 'feature');
  const sha = await push(p.owner, repo, `Reopens #${issue.number}\n\ncloses #${pr.number}`);
  assert.is(await stateOf(repo, issue.number), 'open');
  assert.equal((await timeline(repo, issue.number, ['close', 'reopen'])).map((e) => [e.type, e.ref_commit_sha]), [['close', ''], ['reopen', sha]]);
  assert.is((await getIssue(app, repo, pr.number, p.owner)).state, 'open', 'the pull request stays open');
});

test('another repository: closed for a pusher who writes its issues or posted the issue; left open for a reader', async () => {
  const home = await repoOf(p.writer);
  const elsewhere = await repoOf(p.owner);
  const byOwner = await newIssue(app, elsewhere, p.owner, { title: 'owner\'s' });
  const byOutsider = await newIssue(app, elsewhere, p.outsider, { title: 'outsider\'s' });
  await addCollaborator(app, home, p.outsider, 'write');
  // p.reader reads `elsewhere` only: the reference is recorded, the issue stays open.
  await addCollaborator(app, home, p.reader, 'write');
  await push(p.reader, home, `fixes ${elsewhere.full_name}#${byOwner.number}`);
  assert.is(await stateOf(elsewhere, byOwner.number), 'open', 'a reader of the other repository closes nothing there');
  assert.equal((await timeline(elsewhere, byOwner.number, ['commit_ref', 'close'])).map((e) => e.type), ['commit_ref']);
  // Gitea's canclose: the issue's poster may close it, though they cannot write the repository.
  await push(p.outsider, home, `fixes ${elsewhere.full_name}#${byOutsider.number}`);
  assert.is(await stateOf(elsewhere, byOutsider.number), 'closed', 'the poster closes their own issue');
  // A writer of the other repository closes there.
  const sha = await push(p.writer, home, `Fixes ${elsewhere.full_name}#${byOwner.number}`);
  assert.is(await stateOf(elsewhere, byOwner.number), 'closed');
  assert.equal((await timeline(elsewhere, byOwner.number, ['close'])).map((e) => [e.ref_commit_sha, e.user.login]), [[sha, p.writer.username]]);
});

test('an issue of a repository the pusher cannot read stays open and unreferenced', async () => {
  const home = await repoOf(p.writer);
  const secret = await repoOf(p.owner, { private: true });
  const issue = await newIssue(app, secret, p.owner);
  await addCollaborator(app, home, p.outsider, 'write');
  await push(p.outsider, home, `fixes ${secret.full_name}#${issue.number}`);
  assert.is(await stateOf(secret, issue.number), 'open');
  assert.equal(await timeline(secret, issue.number, ['commit_ref', 'close']), []);
});

test('an issue naming a branch (its ref) is closed by commits reaching that branch, not the default one', async () => {
  const repo = await repoOf();
  const issue = await newIssue(app, repo, p.owner, { ref: 'release' });
  await push(p.writer, repo, `fixes #${issue.number}`);
  assert.is(await stateOf(repo, issue.number), 'open', 'main is not the issue\'s branch');
  await push(p.writer, repo, `fixes #${issue.number} on release`, 'release');
  assert.is(await stateOf(repo, issue.number), 'closed');
});

test('a merged pull request closes the issues its body fixes, as the merger, naming the merge commit', async () => {
  const repo = await repoOf();
  const issue = await newIssue(app, repo, p.reader);
  const reopened = await newIssue(app, repo, p.reader);
  await editIssue(app, repo, reopened.number, p.owner, { state: 'closed' });
  await patch(app, repo, p.writer, addFile('fix.txt', ['x']), { newBranch: 'fix' });
  // The pull request's poster is a reader: a new pull request of the same repository keeps the keyword for its merger.
  const pr = await openPull(app, repo, p.reader, 'fix', { body: `Fixes #${issue.number}\n\nreopens #${reopened.number}` });
  assert.is(await stateOf(repo, issue.number), 'open', 'opening the pull request closes nothing');
  const merged = await mergePull(app, repo, p.owner.auth, pr.number, { Do: 'merge' });
  assert.is(merged.response.status, 200);
  const sha = (await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...repo.path, index: pr.number } } })).data!.merge_commit_sha;
  assert.is(await stateOf(repo, issue.number), 'closed');
  assert.is(await stateOf(repo, reopened.number), 'open');
  assert.equal((await timeline(repo, issue.number, ['close'])).map((e) => [e.ref_commit_sha, e.user.login]), [[sha, p.owner.username]]);
});

test('a pull request marked manually merged closes the issues its body fixes, naming the commit given', async () => {
  const repo = await repoOf();
  await editRepo(app, repo, { allow_manual_merge: true });
  const issue = await newIssue(app, repo, p.owner);
  const head = await patch(app, repo, p.writer, addFile('manual.txt', ['x']), { newBranch: 'manual' });
  const pr = await openPull(app, repo, p.writer, 'manual', { body: `Resolves #${issue.number}` });
  // Merged by hand: main fast-forwarded to the head with git (its message has no keyword).
  const ws = gitWorkspace(app);
  try {
    const dir = await ws.clone(ws.remote(p.writer, repo.path.owner, repo.path.repo));
    await ws.must(['push', '-q', 'origin', 'origin/manual:refs/heads/main'], dir);
  } finally {
    ws.close();
  }
  assert.is(await stateOf(repo, issue.number), 'open');
  const r = await mergePull(app, repo, p.owner.auth, pr.number, { Do: 'manually-merged', MergeCommitID: head });
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assert.is(await stateOf(repo, issue.number), 'closed');
  assert.equal((await timeline(repo, issue.number, ['close'])).map((e) => [e.ref_commit_sha, e.user.login]), [[head, p.owner.username]]);
});

test('merged into a branch other than the default: the body\'s keywords close (Gitea has no base rule), the commits\' do not', async () => {
  const repo = await repoOf();
  const byBody = await newIssue(app, repo, p.owner);
  const byCommit = await newIssue(app, repo, p.owner);
  await patch(app, repo, p.writer, addFile('dev.txt', ['x']), { newBranch: 'develop' });
  const ws = gitWorkspace(app);
  try {
    const dir = await ws.clone(ws.remote(p.writer, repo.path.owner, repo.path.repo));
    await ws.must(['checkout', '-q', '-b', 'work', 'origin/develop'], dir);
    await ws.commit(dir, 'w.txt', 'w', `Fixes #${byCommit.number}`);
    await ws.must(['push', '-q', 'origin', 'work'], dir);
  } finally {
    ws.close();
  }
  const pr = await openPull(app, repo, p.writer, 'work', { base: 'develop', body: `Closes #${byBody.number}` });
  assert.is((await mergePull(app, repo, p.owner.auth, pr.number, { Do: 'merge' })).response.status, 200);
  assert.is(await stateOf(repo, byBody.number), 'closed');
  assert.is(await stateOf(repo, byCommit.number), 'open', 'develop is not the default branch');
});

test('merged into the default branch, the commits\' keywords close too; a keyword in a comment of someone who may close counts', async () => {
  const repo = await repoOf();
  const byCommit = await newIssue(app, repo, p.owner);
  const byComment = await newIssue(app, repo, p.owner);
  const byReader = await newIssue(app, repo, p.owner);
  const ws = gitWorkspace(app);
  try {
    const dir = await ws.clone(ws.remote(p.writer, repo.path.owner, repo.path.repo));
    await ws.must(['checkout', '-q', '-b', 'squashme'], dir);
    await ws.commit(dir, 's.txt', 's', `Fixes #${byCommit.number}`);
    await ws.must(['push', '-q', 'origin', 'squashme'], dir);
  } finally {
    ws.close();
  }
  const pr = await openPull(app, repo, p.writer, 'squashme');
  await newComment(app, repo, pr.number, p.writer, `this also fixes #${byComment.number}`);
  // A reader's comment cannot close an issue they did not post (its reference keeps no keyword).
  await newComment(app, repo, pr.number, p.reader, `and fixes #${byReader.number}`);
  assert.is((await mergePull(app, repo, p.owner.auth, pr.number, { Do: 'rebase' })).response.status, 200);
  assert.is(await stateOf(repo, byCommit.number), 'closed', 'the rebased commit reached main');
  assert.is(await stateOf(repo, byComment.number), 'closed');
  assert.is(await stateOf(repo, byReader.number), 'open');
});

test('a merged pull request leaves open an issue of a repository its merger cannot write (anvil asks the merger too)', async () => {
  const home = await repoOf(p.owner);
  const elsewhere = await repoOf(p.writer);
  const issue = await newIssue(app, elsewhere, p.writer);
  await patch(app, home, p.writer, addFile('x.txt', ['x']), { newBranch: 'cross' });
  const pr = await openPull(app, home, p.writer, 'cross', { body: `Fixes ${elsewhere.full_name}#${issue.number}` });
  assert.equal((await timeline(elsewhere, issue.number, ['pull_ref'])).map((e) => e.ref_action), ['closes'], 'its poster may close it');
  // p.owner merges: p.owner does not own `elsewhere` and is no collaborator there.
  assert.is((await mergePull(app, home, p.owner.auth, pr.number, { Do: 'squash' })).response.status, 200);
  assert.is(await stateOf(elsewhere, issue.number), 'open');
});

test('an already closed issue is left alone: no second close, no event; a webhook receiver sees exactly one issues/closed', async () => {
  const repo = await repoOf();
  await repoHook(app, p.owner.auth, repo.path, hookBody(hooks.url, { events: ['issues'] }));
  const issue = await newIssue(app, repo, p.owner);
  // Two commits of one push both fix it, then a merged pull request fixes it again.
  const ws = gitWorkspace(app);
  try {
    const dir = await ws.clone(ws.remote(p.writer, repo.path.owner, repo.path.repo));
    await ws.commit(dir, 'a.txt', 'a', `fixes #${issue.number}`);
    await ws.commit(dir, 'b.txt', 'b', `Fixed #${issue.number} for good`);
    await ws.must(['push', '-q', 'origin', 'HEAD:main'], dir);
  } finally {
    ws.close();
  }
  await patch(app, repo, p.writer, addFile('again.txt', ['x']), { newBranch: 'again' });
  const pr = await openPull(app, repo, p.writer, 'again', { body: `fixes #${issue.number}` });
  assert.is((await mergePull(app, repo, p.owner.auth, pr.number, { Do: 'merge' })).response.status, 200);
  assert.is(await stateOf(repo, issue.number), 'closed');
  assert.is((await timeline(repo, issue.number, ['close'])).length, 1);
  const closedEvents = (await eventsOf(app, repo.id)).rows.filter((e) => e.type === 'issues' && e.action === 'closed');
  assert.is(closedEvents.length, 1);
  // One delivery row was written for the close (and one for the issue's opening), and the receiver gets each once.
  const [hook] = await app.services.deps.db.select().from(hooksTable).where(eq(hooksTable.repoId, repo.id));
  const rows = await app.services.deps.db.select().from(hookDeliveries).where(eq(hookDeliveries.hookId, hook!.id));
  const actions = rows.map((r) => (JSON.parse(r.payload) as { action: string }).action).sort();
  assert.equal(actions, ['closed', 'opened']);
  const mine = () => hooks.of('issues').filter((h) => (JSON.parse(h.body) as { repository: { id: number } }).repository.id === repo.id);
  await eventually(() => mine().length >= rows.length, 'both deliveries');
  const closed = mine().map((h) => JSON.parse(h.body) as { action: string; sender: { login: string }; issue: { number: number; state: string } })
    .filter((b) => b.action === 'closed');
  assert.equal(closed.map((b) => [b.issue.number, b.issue.state, b.sender.login]), [[issue.number, 'closed', p.writer.username]]);
});

test('CLOSE_KEYWORDS and REOPEN_KEYWORDS replace the keywords; only words of letters are accepted', async () => {
  assert.throws(() => loadConfig({ CLOSE_KEYWORDS: 'fix, fix-es' }), (e: unknown) => e instanceof ConfigError && /CLOSE_KEYWORDS/.test(e.message));
  assert.equal(loadConfig({ CLOSE_KEYWORDS: ' Corrige, ferme ,', REOPEN_KEYWORDS: '' }).issueKeywords, { close: ['corrige', 'ferme'], reopen: [] });
  const other = await startApp({ CLOSE_KEYWORDS: 'corrige,ferme', REOPEN_KEYWORDS: '' });
  try {
    const q = await people(other);
    const made = await userRepo(other, q.owner, { auto_init: true });
    const repo = { ...made, path: pathOf(made) };
    const mk = async () => {
      const r = await other.client(q.owner.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: repo.path }, body: { title: 't' } });
      return r.data!.number;
    };
    const [a, b] = [await mk(), await mk()];
    await pushFiles(other, q.owner, repo.path.owner, repo.path.repo, { 'k.txt': 'k' }, { message: `Corrige #${a}, fixes #${b}` });
    const state = async (n: number) => (await other.client(q.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index: n } } })).data!.state;
    assert.equal([await state(a), await state(b)], ['closed', 'open']);
    await pushFiles(other, q.owner, repo.path.owner, repo.path.repo, { 'l.txt': 'l' }, { message: `reopens #${a}` });
    assert.is(await state(a), 'closed', 'no reopen keywords at all');
  } finally {
    await other.close();
  }
});

test.run();
