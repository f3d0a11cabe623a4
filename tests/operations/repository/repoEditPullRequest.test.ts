import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { pullRequests } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import {
  assertEmpty404, editIssue, eventComments, getIssue, historyOf, newIssue, newLabel, newMilestone, type Label, type Milestone, type Repo,
} from '../../helpers/issues.js';
import { addFile, assertMatchesGit, openPull, patch, type PullRequest } from '../../helpers/pulls.js';
import { actor, addCollaborator, getRepo, messageOf, pathOf, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Body = components['schemas']['EditPullRequestOption'];

let app: TestApp;
let r: Roles;
let other: Actor;
let repo: Repo;
let priv: Repo;
let l1: Label;
let l2: Label;
let m: Milestone;
/** Opened by the reader (a poster without write access). */
let byReader: PullRequest;
/** Opened by the writer. */
let byWriter: PullRequest;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  other = await actor(app);
  const [a, b] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  [repo, priv] = [{ ...a!, path: pathOf(a!) }, { ...b!, path: pathOf(b!) }];
  await addCollaborator(app, repo, other, 'read');
  for (const n of [1, 2, 3, 5]) await patch(app, repo, r.writer, addFile(`e${n}.txt`, ['x']), { newBranch: `e${n}` });
  await patch(app, repo, r.writer, addFile('dev.txt', ['d']), { newBranch: 'dev' });
  await patch(app, repo, r.writer, addFile('s1.txt', ['1', '1']), { newBranch: 's1' });
  await patch(app, repo, r.writer, addFile('s2.txt', ['2']), { branch: 's1', newBranch: 's2' });
  await patch(app, priv, r.writer, addFile('p.txt', ['p']), { newBranch: 'p' });
  [l1, l2, m] = [await newLabel(app, repo, r.owner, { name: 'one' }), await newLabel(app, repo, r.owner, { name: 'two' }), await newMilestone(app, repo, r.owner)];
  byReader = await openPull(app, repo, r.reader, 'e1', { title: 'first title', body: 'original' });
  byWriter = await openPull(app, repo, r.writer, 'e2');
});
test.after(async () => {
  await app.close();
});

const edit = (target: Repo, index: number, body: Body, authorization?: string) =>
  app.client(authorization).PATCH('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...target.path, index } }, body });

async function edited(index: number, body: Body, as: Actor = r.writer, target = repo) {
  const res = await edit(target, index, body, as.auth);
  assert.is(res.response.status, 201, `${JSON.stringify(body)} → ${res.response.status} ${JSON.stringify(res.error)}`);
  assertSpec('repoEditPullRequest', res);
  return res.data!;
}

async function refused(index: number, body: Body, status: number, as: Actor = r.writer, pattern?: RegExp) {
  const res = await edit(repo, index, body, as.auth);
  assert.is(res.response.status, status, `${JSON.stringify(body)} → ${JSON.stringify(res.error)}`);
  assertSpec('repoEditPullRequest', res);
  if (pattern) assert.match(messageOf(res.error), pattern);
}

const read = async (index: number, as: Actor = r.writer) =>
  (await app.client(as.auth).GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...repo.path, index } } })).data!;

const openPrs = async () => (await getRepo(app, repo.path.owner, repo.path.repo, r.owner.auth)).data!.open_pr_counter;

test('201: the poster (a reader) edits title and body; content history keeps the original first; read-after-write', async () => {
  const out = await edited(byReader.number, { title: 'new title', body: 'second' }, r.reader);
  assert.equal([out.title, out.body, out.content_version, out.state], ['new title', 'second', 1, 'open']);
  assert.equal(await read(byReader.number, r.reader), out);
  await edited(byReader.number, { body: 'third' }, r.writer);
  const issueId = (await getIssue(app, repo, byReader.number)).id;
  const h = await historyOf(app, issueId);
  assert.equal(h.map((x) => [x.content, x.isFirstCreated, x.editorId]), [
    ['original', true, r.reader.id], ['second', false, r.reader.id], ['third', false, r.writer.id],
  ]);
  const titles = await eventComments(app, issueId, 'change_title');
  assert.equal(titles.map((c) => [c.oldValue, c.newValue]), [['first title', 'new title']]);
});

test('409: a stale content_version changes nothing; the current one is accepted', async () => {
  const before = await read(byReader.number);
  const res = await edit(repo, byReader.number, { title: 'lost', body: 'lost', content_version: before.content_version - 1 }, r.reader.auth);
  assert.is(res.response.status, 409);
  assertSpec('repoEditPullRequest', res);
  assert.equal(await read(byReader.number), before, 'nothing changed');
  const ok = await edited(byReader.number, { body: 'fourth', content_version: before.content_version }, r.reader);
  assert.is(ok.content_version, before.content_version + 1);
});

test('201: due_date becomes 23:59:59 of its date in its own zone; unset_due_date removes it', async () => {
  const set = await edited(byReader.number, { due_date: '2026-03-01T08:00:00+02:00' }, r.reader);
  assert.is(set.due_date, '2026-03-01T21:59:59Z');
  const kept = await edited(byReader.number, { title: 'x' }, r.reader);
  assert.is(kept.due_date, set.due_date, 'untouched when not given');
  const unset = await edited(byReader.number, { unset_due_date: true }, r.reader);
  assert.is(unset.due_date, null);
});

test('201: writers set assignees, labels (replacing the set) and milestone; 422 an unknown assignee; a non-writer poster\'s are ignored', async () => {
  const a = await edited(byWriter.number, { assignees: [r.writer.username, r.owner.username], labels: [l1.id, l2.id], milestone: m.id });
  assert.equal([a.assignees.map((u) => u.login).sort(), a.labels.map((l) => l.id), a.milestone?.id], [[r.writer.username, r.owner.username].sort(), [l1.id, l2.id], m.id]);
  const b = await edited(byWriter.number, { labels: [l2.id, 424242], milestone: 0 });
  assert.equal([b.labels.map((l) => l.id), b.milestone?.id, b.assignees.length], [[l2.id], m.id, 2], 'labels replaced; milestone 0 keeps it');
  await refused(byWriter.number, { assignees: ['no-such-user-x'], title: 'not applied' }, 422, r.writer, /Assignee does not exist/);
  assert.equal((await read(byWriter.number)).title, b.title, 'nothing changed');
  const c = await edited(byWriter.number, { assignees: [] });
  assert.equal(c.assignees, []);
  const ignored = await edited(byReader.number, { assignees: [r.reader.username], labels: [l1.id], milestone: m.id }, r.reader);
  assert.equal([ignored.assignees, ignored.labels, ignored.milestone], [[], [], null]);
});

test('201: state closed and open move closed_at and the repository\'s open_pr_counter', async () => {
  const open = await openPrs();
  const closed = await edited(byWriter.number, { state: 'closed' });
  assert.equal([closed.state, !!closed.closed_at, await openPrs()], ['closed', true, open - 1]);
  const reopened = await edited(byWriter.number, { state: 'open' }, r.writer);
  assert.equal([reopened.state, reopened.closed_at, await openPrs()], ['open', null, open]);
  await refused(byWriter.number, { state: 'merged' }, 412, r.writer, /unknown state/);
});

test('201: a base change computes the statistics again and records the event; 404, 409 and 422 for the refused ones', async () => {
  const stacked = await openPull(app, repo, r.writer, 's2');
  assert.is(stacked.changed_files, 2);
  const moved = await edited(stacked.number, { base: 's1' });
  assert.equal([moved.base.label, moved.changed_files, moved.additions], ['s1', 1, 1]);
  await assertMatchesGit(app, repo, moved, 'against the new base');
  const issueId = (await getIssue(app, repo, stacked.number)).id;
  assert.equal((await eventComments(app, issueId, 'change_target_branch')).map((c) => [c.oldValue, c.newValue]), [['main', 's1']]);

  await refused(stacked.number, { base: 'nope', title: 'not applied' }, 404);
  await refused(stacked.number, { base: 's2' }, 422, r.writer, /same branch/);
  const toMain = await openPull(app, repo, r.writer, 'e3');
  const toDev = await openPull(app, repo, r.writer, 'e3', { base: 'dev' });
  await refused(toDev.number, { base: 'main', title: 'not applied' }, 409, r.writer, /already exists/);
  const unchanged = await read(toDev.number);
  assert.equal([unchanged.base.label, unchanged.title], ['dev', toDev.title], 'nothing changed');
  await editIssue(app, repo, toMain.number, r.writer, { state: 'closed' });
  assert.is((await edited(toDev.number, { base: 'main' })).base.label, 'main', 'a closed duplicate does not count');
  await refused(toMain.number, { base: 'dev' }, 422, r.writer, /closed/);
  assert.is((await edited(toMain.number, { base: 'dev', state: 'open' })).base.label, 'dev', 'reopened in the same request');
});

test('412/409: a merged pull request keeps its state and base', async () => {
  const pr = await openPull(app, repo, r.writer, 'e5');
  await app.services.deps.db.update(pullRequests)
    .set({ merged: true, mergedAt: new Date('2030-01-01T00:00:00Z'), mergedById: r.owner.id, mergeCommitSha: 'c0ffee' })
    .where(eq(pullRequests.id, pr.id));
  await refused(pr.number, { state: 'closed' }, 412, r.writer, /already merged/);
  await refused(pr.number, { base: 'dev' }, 409, r.writer, /merged/);
  const out = await edited(pr.number, { title: 'still editable' });
  assert.equal([out.merged, out.merged_at, out.merged_by?.login, out.merge_commit_sha, out.title],
    [true, '2030-01-01T00:00:00Z', r.owner.username, 'c0ffee', 'still editable']);
});

test('201/403: allow_maintainer_edit is the poster\'s to change', async () => {
  assert.is((await edited(byReader.number, { allow_maintainer_edit: true }, r.reader)).allow_maintainer_edit, true);
  await refused(byReader.number, { allow_maintainer_edit: false, title: 'not applied' }, 403, r.writer);
  const now = await read(byReader.number);
  assert.equal([now.allow_maintainer_edit, now.title === 'not applied'], [true, false]);
});

test('403 neither poster nor writer; 404 an issue\'s number, a missing one, a private repository; 401 anonymous', async () => {
  await refused(byReader.number, { title: 'by another reader' }, 403, other);
  const issue = await newIssue(app, repo, r.reader);
  assertEmpty404(await edit(repo, issue.number, { title: 't' }, r.writer.auth), 'an issue');
  assertEmpty404(await edit(repo, 999, { title: 't' }, r.writer.auth), 'missing');
  const hidden = await openPull(app, priv, r.writer, 'p');
  assertEmpty404(await edit(priv, hidden.number, { title: 't' }, r.outsider.auth), 'outsider');
  const anon = await edit(repo, byReader.number, { title: 't' });
  assert.is(anon.response.status, 401);
  assertSpec('repoEditPullRequest', anon);
});

test.run();
