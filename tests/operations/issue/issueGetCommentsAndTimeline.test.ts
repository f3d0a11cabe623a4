import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, newComment, newIssue, newLabel, newMilestone, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { addLink, removeLink } from '../../helpers/dependencies.js';
import { addFile, openPull, patch } from '../../helpers/pulls.js';
import { pathOf, userRepo } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { backdateStopwatch, stopwatch, tracked } from '../../helpers/times.js';
import type { components } from '../../../generated/openapi.js';

type Entry = components['schemas']['TimelineComment'];

let app: TestApp;
let p: People;
let pub: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  pub = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

const timeline = (repo: Repo, index: number, auth?: string, query: { since?: string; before?: string; page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/{index}/timeline', { params: { path: { ...repo.path, index }, query } });

test('200: comments and events in order, as Gitea\'s timeline types with their fields', async () => {
  const i = await newIssue(app, pub, p.reader, { title: 'first' });
  const c = await newComment(app, pub, i.number, p.reader, 'hello');
  await editIssue(app, pub, i.number, p.writer, { title: 'second' });
  const label = await newLabel(app, pub, p.owner, { name: 'bug' });
  const added = await app.client(p.writer.auth).POST('/repos/{owner}/{repo}/issues/{index}/labels', { params: { path: { ...pub.path, index: i.number } }, body: { labels: [label.id] } });
  assert.is(added.response.status, 200);
  await editIssue(app, pub, i.number, p.writer, { state: 'closed' });
  await editIssue(app, pub, i.number, p.writer, { state: 'open' });
  const locked = await app.client(p.writer.auth).PUT('/repos/{owner}/{repo}/issues/{index}/lock', { params: { path: { ...pub.path, index: i.number } }, body: { lock_reason: 'Resolved' } });
  assert.is(locked.response.status, 204);

  const r = await timeline(pub, i.number);
  assert.is(r.response.status, 200);
  assertSpec('issueGetCommentsAndTimeline', r);
  const rows = r.data!;
  assert.equal(rows.map((x) => x.type), ['comment', 'change_title', 'label', 'close', 'reopen', 'lock']);
  assert.is(r.response.headers.get('x-total-count'), '6');
  const [comment, title, lbl, , , lock] = rows;
  assert.is(comment!.id, c.id);
  assert.is(comment!.body, 'hello');
  assert.is(comment!.user.login, p.reader.username);
  assert.ok(comment!.html_url.endsWith(`/issues/${i.number}#issuecomment-${c.id}`));
  assert.is(comment!.issue_url, i.html_url);
  assert.is(comment!.pull_request_url, '');
  assert.equal([title!.old_title, title!.new_title, title!.user.login], ['first', 'second', p.writer.username]);
  assert.is(lbl!.label?.id, label.id);
  assert.is(lbl!.body, '1', 'a label added');
  assert.is(lock!.body, 'Resolved');

  const page = await timeline(pub, i.number, undefined, { page: 2, limit: 4 });
  assert.equal(page.data!.map((x) => x.type), ['reopen', 'lock']);
  assert.is(page.response.headers.get('x-total-count'), '6');
  const none = await timeline(pub, i.number, undefined, { since: new Date(Date.now() + 3_600_000).toISOString() });
  assert.equal(none.data, []);
  const all = await timeline(pub, i.number, undefined, { before: new Date(Date.now() + 3_600_000).toISOString() });
  assert.is(all.data!.length, 6);
});

/** The entries of `index`'s timeline (all of them, as `auth` sees them) of one of `types`. */
async function entries(repo: Repo, index: number, types: string[], auth?: string): Promise<Entry[]> {
  const r = await timeline(repo, index, auth, { limit: 50 });
  assert.is(r.response.status, 200);
  assertSpec('issueGetCommentsAndTimeline', r);
  return r.data!.filter((e) => types.includes(e.type));
}

test('assignees and milestones: on creation and on each change, with removed_assignee and old_milestone/milestone', async () => {
  const [m1, m2] = [await newMilestone(app, pub, p.owner, { title: 'one' }), await newMilestone(app, pub, p.owner, { title: 'two' })];
  const i = await newIssue(app, pub, p.owner, { assignees: [p.writer.username], milestone: m1.id });
  await editIssue(app, pub, i.number, p.writer, { assignees: [p.owner.username], milestone: m2.id });
  await editIssue(app, pub, i.number, p.writer, { milestone: 0 });
  const rows = await entries(pub, i.number, ['assignees', 'milestone']);
  assert.equal(rows.map((e) => [e.type, e.assignee?.login ?? null, e.removed_assignee, e.old_milestone?.title ?? null, e.milestone?.title ?? null, e.user.login]), [
    ['milestone', null, false, null, 'one', p.owner.username],
    ['assignees', p.writer.username, false, null, null, p.owner.username],
    ['milestone', null, false, 'one', 'two', p.writer.username],
    ['assignees', p.owner.username, false, null, null, p.writer.username],
    ['assignees', p.writer.username, true, null, null, p.writer.username],
    ['milestone', null, false, 'two', null, p.writer.username],
  ]);
  // A reader's assignees and milestone are ignored (Gitea), so nothing is recorded either.
  const own = await newIssue(app, pub, p.reader, { assignees: [p.writer.username], milestone: m1.id });
  await editIssue(app, pub, own.number, p.reader, { assignees: [p.reader.username], milestone: m2.id });
  assert.equal(await entries(pub, own.number, ['assignees', 'milestone']), []);
});

test('deadlines: added_deadline, modified_deadline (new|old), removed_deadline; a repeat records nothing', async () => {
  const i = await newIssue(app, pub, p.owner);
  const deadline = (due_date: string | null) =>
    app.client(p.writer.auth).POST('/repos/{owner}/{repo}/issues/{index}/deadline', { params: { path: { ...pub.path, index: i.number } }, body: { due_date } as never });
  assert.is((await deadline('2030-01-02T10:00:00Z')).response.status, 201);
  assert.is((await deadline('2030-01-02T10:00:00Z')).response.status, 201);
  await editIssue(app, pub, i.number, p.writer, { due_date: '2030-02-03T00:00:00Z' });
  assert.is((await deadline(null)).response.status, 201);
  const rows = await entries(pub, i.number, ['added_deadline', 'modified_deadline', 'removed_deadline']);
  assert.equal(rows.map((e) => [e.type, e.body]), [
    ['added_deadline', '2030-01-02'],
    ['modified_deadline', '2030-02-03|2030-01-02'],
    ['removed_deadline', '2030-02-03'],
  ]);
});

test('change_issue_ref: old_ref and new_ref, branch names without refs/heads/', async () => {
  const i = await newIssue(app, pub, p.owner);
  await editIssue(app, pub, i.number, p.owner, { ref: 'refs/heads/feature' });
  await editIssue(app, pub, i.number, p.owner, { ref: 'v1.0' });
  const rows = await entries(pub, i.number, ['change_issue_ref']);
  assert.equal(rows.map((e) => [e.old_ref, e.new_ref]), [['', 'feature'], ['feature', 'v1.0']]);
});

test('tracked time: add_time_manual with tracked_time, start/stop/cancel_tracking, delete_time_manual (hours and minutes)', async () => {
  const i = await newIssue(app, pub, p.owner);
  const t = await tracked(app, pub, i.number, p.writer, { time: 3_700 });
  assert.is((await stopwatch(app, 'start', pub, i.number, p.writer.auth)).response.status, 201);
  await backdateStopwatch(app, p.writer.id, 125);
  assert.is((await stopwatch(app, 'stop', pub, i.number, p.writer.auth)).response.status, 201);
  assert.is((await stopwatch(app, 'start', pub, i.number, p.writer.auth)).response.status, 201);
  assert.is((await stopwatch(app, 'delete', pub, i.number, p.writer.auth)).response.status, 204);
  const del = await app.client(p.writer.auth).DELETE('/repos/{owner}/{repo}/issues/{index}/times/{id}', { params: { path: { ...pub.path, index: i.number, id: t.id } } });
  assert.is(del.response.status, 204);
  const reset = await app.client(p.writer.auth).DELETE('/repos/{owner}/{repo}/issues/{index}/times', { params: { path: { ...pub.path, index: i.number } } });
  assert.is(reset.response.status, 204);
  const rows = await entries(pub, i.number, ['add_time_manual', 'start_tracking', 'stop_tracking', 'cancel_tracking', 'delete_time_manual']);
  assert.equal(rows.map((e) => [e.type, e.body, e.user.login]), [
    ['add_time_manual', '1 hour 1 minute', p.writer.username],
    ['start_tracking', '', p.writer.username],
    ['stop_tracking', '2 minutes', p.writer.username],
    ['start_tracking', '', p.writer.username],
    ['cancel_tracking', '', p.writer.username],
    ['delete_time_manual', '1 hour 1 minute', p.writer.username],
    ['delete_time_manual', '2 minutes', p.writer.username],
  ]);
  // The manual time is deleted (anvil keeps no deleted times): its entry shows none; the stopwatch's run was reset.
  assert.is(rows[0]!.tracked_time, null);
  assert.is(rows[2]!.tracked_time, null);
  // Starting a stopwatch on another issue stops the running one there (Gitea), with its entry.
  const k = await newIssue(app, pub, p.owner);
  assert.is((await stopwatch(app, 'start', pub, i.number, p.writer.auth)).response.status, 201);
  await backdateStopwatch(app, p.writer.id, 3_600);
  assert.is((await stopwatch(app, 'start', pub, k.number, p.writer.auth)).response.status, 201);
  const [stopped] = (await entries(pub, i.number, ['stop_tracking'])).slice(-1);
  assert.equal([stopped!.body, stopped!.tracked_time?.time, stopped!.tracked_time?.issue?.number], ['1 hour', 3_600, i.number]);
  assert.equal((await entries(pub, k.number, ['start_tracking'])).length, 1);
  assert.is((await stopwatch(app, 'delete', pub, k.number, p.writer.auth)).response.status, 204);
  const j = await newIssue(app, pub, p.owner);
  const kept = await tracked(app, pub, j.number, p.owner, { time: 59 });
  const [added] = await entries(pub, j.number, ['add_time_manual']);
  assert.is(added!.body, '59 seconds');
  assert.equal([added!.tracked_time?.id, added!.tracked_time?.time, added!.tracked_time?.user_name, added!.tracked_time?.issue?.number], [kept.id, 59, p.owner.username, j.number]);
});

test('dependencies: add_dependency and remove_dependency on both issues, dependent_issue the other one', async () => {
  const [a, b] = [await newIssue(app, pub, p.owner, { title: 'blocked' }), await newIssue(app, pub, p.owner, { title: 'blocker' })];
  assert.is((await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: b.number })).response.status, 201);
  assert.is((await removeLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: b.number })).response.status, 200);
  // Removing a link that is not there records nothing.
  await removeLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: b.number });
  const onA = await entries(pub, a.number, ['add_dependency', 'remove_dependency']);
  const onB = await entries(pub, b.number, ['add_dependency', 'remove_dependency']);
  assert.equal(onA.map((e) => [e.type, e.dependent_issue?.number, e.dependent_issue?.title, e.user.login]), [
    ['add_dependency', b.number, 'blocker', p.writer.username], ['remove_dependency', b.number, 'blocker', p.writer.username],
  ]);
  assert.equal(onB.map((e) => [e.type, e.dependent_issue?.number]), [['add_dependency', a.number], ['remove_dependency', a.number]]);
});

test('cross references: issue_ref from a body or title, comment_ref (neutered when edited away), once per issue', async () => {
  const target = await newIssue(app, pub, p.owner, { title: 'target' });
  const from = await newIssue(app, pub, p.reader, { title: 'mentions', body: `see #${target.number}, and again (#${target.number})\n\n\`#${target.number}\` is code` });
  const c = await newComment(app, pub, from.number, p.reader, `related to ${pub.full_name}#${target.number}.`);
  const other = await newIssue(app, pub, p.reader, { title: 'plain' });
  await editIssue(app, pub, other.number, p.reader, { title: `plain, like #${target.number}` });
  // A mention of itself and of an issue that does not exist make nothing.
  await newIssue(app, pub, p.reader, { body: `#${target.number + 1000}` });
  let rows = await entries(pub, target.number, ['issue_ref', 'comment_ref', 'pull_ref']);
  assert.equal(rows.map((e) => [e.type, e.ref_issue?.number, e.ref_comment?.id ?? null, e.ref_action, e.user.login]), [
    ['issue_ref', from.number, null, 'none', p.reader.username],
    ['comment_ref', from.number, c.id, 'none', p.reader.username],
    ['issue_ref', other.number, null, 'none', p.reader.username],
  ]);
  assert.is(rows[1]!.ref_comment?.body, c.body);
  assert.is(rows[0]!.ref_issue?.title, 'mentions');
  // Edited away, the comment's reference is neutered; mentioned again, a new one is made.
  const edit = (body: string) => app.client(p.reader.auth).PATCH('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...pub.path, id: c.id } }, body: { body } });
  assert.is((await edit('nothing here')).response.status, 200);
  assert.is((await edit(`back to #${target.number}`)).response.status, 200);
  rows = await entries(pub, target.number, ['comment_ref']);
  assert.equal(rows.map((e) => e.ref_action), ['neutered', 'none']);
  // Editing the issue's body keeps its references that still stand (nothing repeated).
  await editIssue(app, pub, from.number, p.reader, { body: `still #${target.number}` });
  assert.equal((await entries(pub, target.number, ['issue_ref'])).map((e) => [e.ref_issue?.number, e.ref_action]), [[from.number, 'none'], [other.number, 'none']]);
  // A deleted comment's reference is neutered and shows no comment; a deleted issue's references go with it.
  const gone = await app.client(p.reader.auth).DELETE('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...pub.path, id: c.id } } });
  assert.is(gone.response.status, 204);
  assert.equal((await entries(pub, target.number, ['comment_ref'])).map((e) => [e.ref_action, e.ref_comment]), [['neutered', null], ['neutered', null]]);
  const deleted = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...pub.path, index: other.number } } });
  assert.is(deleted.response.status, 204);
  assert.equal((await entries(pub, target.number, ['issue_ref'])).map((e) => e.ref_issue?.number), [from.number]);
});

test('a body naming thousands of issues and repositories is answered (references are looked up in bounded batches)', async () => {
  const target = await newIssue(app, pub, p.owner, { title: 'named among many' });
  const many = [...Array.from({ length: 3_000 }, (_v, n) => `#${n + 1}`), ...Array.from({ length: 120 }, (_v, n) => `nobody${n}/repo#1`), `#${target.number}`].join(' ');
  const from = await newIssue(app, pub, p.reader, { body: many });
  const edited = await app.client(p.reader.auth).PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...pub.path, index: from.number } }, body: { body: `${many} again` } });
  assert.is(edited.response.status, 201);
  const rows = await entries(pub, target.number, ['issue_ref']);
  assert.equal(rows.map((e) => [e.ref_issue?.number, e.ref_action]), [[from.number, 'none']]);
});

test('a comment whose link target is a long run of white space is answered at once (no quadratic backtracking)', async () => {
  const target = await newIssue(app, pub, p.owner, { title: 'after the spaces' });
  const from = await newIssue(app, pub, p.reader, { title: 'spaces' });
  const started = Date.now();
  // 80,000 spaces took the link pattern about 20 s (quadratic in the run), the process blocked meanwhile.
  const c = await newComment(app, pub, from.number, p.reader, `[a](${' '.repeat(80_000)}#${target.number}`);
  assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  const rows = await entries(pub, target.number, ['comment_ref']);
  assert.equal(rows.map((e) => e.ref_comment?.id), [c.id]);
});

test('cross references from elsewhere: only issues the actor can read; hidden from viewers who cannot read the source', async () => {
  const target = await newIssue(app, pub, p.owner, { title: 'public target' });
  const priv = await sharedRepo(app, p, { private: true });
  const secret = await newIssue(app, priv, p.owner, { title: 'secret', body: `see ${pub.full_name}#${target.number}` });
  const [ref] = await entries(pub, target.number, ['issue_ref'], p.owner.auth);
  assert.equal([ref?.ref_issue?.number, ref?.ref_issue?.repository.full_name], [secret.number, priv.full_name]);
  // Whoever cannot read the private repository does not see that it mentions the issue.
  assert.equal(await entries(pub, target.number, ['issue_ref'], p.outsider.auth), []);
  assert.equal(await entries(pub, target.number, ['issue_ref']), []);
  // An outsider's mention of a private issue references nothing.
  const made = await userRepo(app, p.outsider);
  const own = { ...made, path: pathOf(made) };
  await newIssue(app, own, p.outsider, { body: `leak ${priv.full_name}#${secret.number}` });
  assert.equal(await entries(priv, secret.number, ['issue_ref'], p.owner.auth), []);
});

test('pull_ref with closes, commit_ref from a pushed commit message', async () => {
  const made = await userRepo(app, p.owner, { auto_init: true });
  const repo = { ...made, path: pathOf(made) };
  const target = await newIssue(app, repo, p.owner, { title: 'bug' });
  await patch(app, repo, p.owner, addFile('f.txt', ['x']));
  const sha = (await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/diffpatch', {
    params: { path: repo.path },
    body: { content: addFile('g.txt', ['y']), branch: 'main', new_branch: 'topic', message: `Fix the crash\n\nfixes #${target.number}` },
  })).data!.commit.sha;
  const pr = await openPull(app, repo, p.owner, 'topic', { body: `Closes #${target.number}` });
  const rows = await entries(repo, target.number, ['commit_ref', 'pull_ref']);
  assert.equal(rows.map((e) => [e.type, e.ref_issue?.number ?? null, e.ref_action, e.ref_commit_sha, e.user.login]), [
    ['commit_ref', null, 'none', sha, p.owner.username],
    ['pull_ref', pr.number, 'closes', '', p.owner.username],
  ]);
  assert.is(rows[0]!.body, `<a href="/${repo.full_name}/commit/${sha}">Fix the crash</a>`);
  assert.is(rows[1]!.ref_issue?.pull_request?.html_url, pr.html_url);
});
test('commit_ref: one entry per issue and commit, even from a second process that checked before the first inserted', async () => {
  const made = await userRepo(app, p.owner, { auto_init: true });
  const repo = { ...made, path: pathOf(made) };
  const target = await newIssue(app, repo, p.owner, { title: 'race' });
  const sha = (await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/diffpatch', {
    params: { path: repo.path },
    body: { content: addFile('r.txt', ['y']), branch: 'main', new_branch: 'race', message: `Touch #${target.number}` },
  })).data!.commit.sha;
  assert.is((await entries(repo, target.number, ['commit_ref'])).length, 1);
  // Another process pushing the same commit (another branch) whose check saw no entry yet: its insert is
  // what the database must refuse, or the timeline shows the commit twice.
  const duplicate = `insert into comments (issue_id, repo_id, poster_id, type, commit_sha, body)
    select issue_id, repo_id, poster_id, type, commit_sha, body from comments where type = 'commit_ref' and commit_sha = '${sha}'`;
  let refused = false;
  await app.sqlFromElsewhere(duplicate).catch(() => { refused = true; });
  assert.ok(refused, 'a second commit_ref row for the same issue and commit was accepted');
  assert.is((await entries(repo, target.number, ['commit_ref'])).length, 1);
});
test('404: no such issue; a private repository for an outsider and anonymous; 422 bad since', async () => {
  assertEmpty404(await timeline(pub, 99_999));
  const priv = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, priv, p.owner);
  assertEmpty404(await timeline(priv, i.number, p.outsider.auth));
  assertEmpty404(await timeline(priv, i.number));
  assert.is((await timeline(priv, i.number, p.reader.auth)).response.status, 200);
  const bad = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/timeline', { params: { path: { ...priv.path, index: i.number }, query: { since: 'yesterday' } } });
  assert.is(bad.response.status, 422);
});

test.run();
