import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editRepo, eventComments, getIssue, getMilestone, historyOf, newIssue, newMilestone, people, sharedRepo,
  type EditIssueOption, type People, type Repo,
} from '../../helpers/issues.js';
import { getRepo, messageOf, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const edit = (repo: Repo, index: number, body: EditIssueOption, authorization?: string) =>
  app.client(authorization).PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index } }, body });

async function edited(repo: Repo, index: number, body: EditIssueOption, as = p.owner) {
  const r = await edit(repo, index, body, as.auth);
  assert.is(r.response.status, 201, `${JSON.stringify(body)} → ${r.response.status} ${JSON.stringify(r.error)}`);
  assertSpec('issueEditIssue', r);
  return r.data!;
}

const counts = async (repo: Repo) => {
  const r = (await getRepo(app, repo.path.owner, repo.path.repo, p.owner.auth)).data!;
  return r.open_issues_count;
};

test('201: the poster (a reader) edits title and body; content history keeps the original first; a title change is an event', async () => {
  const issue = await newIssue(app, pub, p.reader, { title: 'old title', body: 'original' });
  const out = await edited(pub, issue.number, { title: 'new title', body: 'second' }, p.reader);
  assert.is(out.title, 'new title');
  assert.is(out.body, 'second');
  assert.is(out.content_version, 1);
  assert.ok(Date.parse(out.updated_at) >= Date.parse(issue.updated_at));
  assert.equal(await getIssue(app, pub, issue.number, p.reader), out, 'read-after-write');
  await edited(pub, issue.number, { body: 'third' }, p.writer);
  const h = await historyOf(app, issue.id);
  assert.equal(h.map((x) => [x.content, x.isFirstCreated, x.editorId]), [
    ['original', true, p.reader.id], ['second', false, p.reader.id], ['third', false, p.writer.id],
  ]);
  assert.is(Math.floor(h[0]!.createdAt.getTime() / 1000) * 1000, Date.parse(issue.created_at), 'the original keeps its time');
  const titles = await eventComments(app, issue.id, 'change_title');
  assert.equal(titles.map((c) => [c.oldValue, c.newValue, c.posterId]), [['old title', 'new title', p.reader.id]]);
  const same = await edited(pub, issue.number, { title: '', body: 'third' }, p.reader);
  assert.is(same.title, 'new title', 'an empty title keeps it');
  assert.is(same.content_version, 2, 'an unchanged body does not bump the version');
  assert.is((await historyOf(app, issue.id)).length, 3);
});

test('201: state closed/open moves closed_at, the repository count and records events; the poster may close', async () => {
  const issue = await newIssue(app, pub, p.reader);
  const open = await counts(pub);
  const closed = await edited(pub, issue.number, { state: 'closed' }, p.reader);
  assert.is(closed.state, 'closed');
  assert.ok(closed.closed_at);
  assert.is(await counts(pub), open - 1);
  const again = await edited(pub, issue.number, { state: 'closed' }, p.writer);
  assert.is(again.closed_at, closed.closed_at, 'closing a closed issue changes nothing');
  const reopened = await edited(pub, issue.number, { state: 'open' }, p.writer);
  assert.is(reopened.state, 'open');
  assert.is(reopened.closed_at, null);
  assert.is(await counts(pub), open);
  assert.equal((await eventComments(app, issue.id)).map((c) => c.type), ['close', 'reopen']);
});

test('201: writers, the owner and the site admin set milestone (0 removes it), assignees ([] clears them) and the due date', async () => {
  const [m1, m2] = [await newMilestone(app, pub, p.owner, { title: 'e1' }), await newMilestone(app, pub, p.owner, { title: 'e2' })];
  const issue = await newIssue(app, pub, p.reader);
  const a = await edited(pub, issue.number, { milestone: m1.id, assignees: [p.writer.username, p.owner.username] }, p.writer);
  assert.is(a.milestone!.id, m1.id);
  assert.is(a.milestone!.open_issues, 1);
  assert.equal(a.assignees.map((u) => u.login).sort(), [p.writer.username, p.owner.username].sort());
  const b = await edited(pub, issue.number, { milestone: m2.id, assignee: p.writer.username, assignees: [] }, p.owner);
  assert.is(b.milestone!.id, m2.id);
  assert.equal(b.assignees.map((u) => u.login), [p.writer.username], 'assignee alone');
  assert.is((await getMilestone(app, pub, m1.id)).open_issues, 0, 'the old milestone is recounted');
  const c = await edited(pub, issue.number, { milestone: 0, assignees: [], due_date: '2030-03-01T08:00:00+02:00' }, p.admin);
  assert.is(c.milestone, null);
  assert.equal(c.assignees, []);
  assert.is(c.assignee, null);
  assert.is(Date.parse(c.due_date!), Date.parse('2030-03-01T23:59:59+02:00'), 'end of that day in its own zone');
  assert.is((await getMilestone(app, pub, m2.id)).open_issues, 0);
  const d = await edited(pub, issue.number, { unset_due_date: true }, p.writer);
  assert.is(d.due_date, null);
  const e = await edited(pub, issue.number, { due_date: '2030-04-05T00:00:00Z', ref: 'refs/tags/v1' }, p.writer);
  assert.is(e.due_date, '2030-04-05T23:59:59Z');
  assert.is(e.ref, 'refs/tags/v1');
});

test('201: a poster without write access cannot set assignees, milestone or due date (silently ignored)', async () => {
  const m = await newMilestone(app, pub, p.owner, { title: 'ignored' });
  const issue = await newIssue(app, pub, p.reader);
  const out = await edited(pub, issue.number, { title: 'mine', milestone: m.id, assignees: [p.writer.username], due_date: '2030-01-01T00:00:00Z' }, p.reader);
  assert.is(out.title, 'mine');
  assert.is(out.milestone, null);
  assert.equal(out.assignees, []);
  assert.is(out.due_date, null);
});

test('400: unset_due_date false without a due_date (Gitea\'s "The due_date cannot be empty")', async () => {
  const issue = await newIssue(app, pub, p.writer);
  const r = await edit(pub, issue.number, { unset_due_date: false }, p.writer.auth);
  assert.is(r.response.status, 400);
  assertSpec('issueEditIssue', r);
  assert.is(messageOf(r.error), 'The due_date cannot be empty');
});

test('403: a reader or outsider who did not post it', async () => {
  const issue = await newIssue(app, pub, p.writer, { title: 'keep' });
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await edit(pub, issue.number, { title: 'nope' }, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueEditIssue', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  assert.is((await getIssue(app, pub, issue.number)).title, 'keep');
});

test('404: missing index, private repository for an outsider, issues unit disabled', async () => {
  const r = await edit(pub, 999_999, { title: 'x' }, p.owner.auth);
  assertEmpty404(r, 'missing');
  assertSpec('issueEditIssue', r);
  const onPriv = await newIssue(app, priv, p.owner);
  assertEmpty404(await edit(priv, onPriv.number, { title: 'x' }, p.outsider.auth), 'private outsider');
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assertEmpty404(await edit(repo, issue.number, { title: 'x' }, p.owner.auth), 'unit disabled');
});

test('412: a state other than open or closed', async () => {
  const issue = await newIssue(app, pub, p.writer);
  const r = await edit(pub, issue.number, { state: 'merged' }, p.writer.auth);
  assert.is(r.response.status, 412);
  assertSpec('issueEditIssue', r);
  assert.is(messageOf(r.error), 'unknown state');
});

test('422: unknown assignee, assignee without write access, milestone of another repository, title too long', async () => {
  const other = await newMilestone(app, priv, p.owner, { title: 'elsewhere' });
  const issue = await newIssue(app, pub, p.writer, { title: 'stays' });
  for (const [label, body] of [
    ['unknown assignee', { assignees: ['no-such-user'] }],
    ['assignee without write', { assignees: [p.reader.username] }],
    ['foreign milestone', { milestone: other.id }],
    ['title too long', { title: 'x'.repeat(256) }],
  ] as Array<[string, EditIssueOption]>) {
    const r = await edit(pub, issue.number, body, p.writer.auth);
    assert.is(r.response.status, 422, `${label}: ${r.response.status}`);
    assertSpec('issueEditIssue', r);
  }
  const after = await getIssue(app, pub, issue.number);
  assert.is(after.milestone, null);
  assert.equal(after.assignees, []);
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const r = await edit(repo, issue.number, { title: 'x' }, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueEditIssue', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const issue = await newIssue(app, pub, p.writer);
  const anon = await edit(pub, issue.number, { title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('issueEditIssue', anon);
  const r = await edit(pub, issue.number, { title: 'x' }, await app.token(p.writer, ['read:issue', 'write:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueEditIssue', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
  const bad = await raw(app, 'PATCH', `/repos/${pub.full_name}/issues/${issue.number}`, { body: '{"title":5}', authorization: p.writer.auth });
  assert.is(bad.response.status, 422, 'a title that is not a string');
});

test.run();
