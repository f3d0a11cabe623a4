import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editRepo, getIssue, newLabel, newMilestone, people, sharedRepo, type CreateIssueOption, type People, type Repo,
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

const create = (repo: Repo | { path: { owner: string; repo: string } }, body: CreateIssueOption, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/issues', { params: { path: repo.path }, body });

const openCount = async (repo: Repo) => (await getRepo(app, repo.path.owner, repo.path.repo, p.owner.auth)).data!.open_issues_count;

test('201: every role that can read issues creates one — reader, writer, owner, site admin, and an outsider on a public repository', async () => {
  const before = await openCount(pub);
  const made: number[] = [];
  for (const [label, as] of [['reader', p.reader], ['writer', p.writer], ['owner', p.owner], ['site admin', p.admin], ['outsider', p.outsider]] as const) {
    const r = await create(pub, { title: `by ${label}`, body: 'details' }, as.auth);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueCreateIssue', r);
    const i = r.data!;
    assert.is(i.title, `by ${label}`);
    assert.is(i.body, 'details');
    assert.is(i.user.login, as.username);
    assert.is(i.state, 'open');
    assert.is(i.comments, 0);
    assert.is(i.content_version, 0);
    assert.is(i.closed_at, null);
    assert.is(i.pull_request, null);
    assert.equal(i.repository, { id: pub.id, name: pub.name, owner: pub.owner.login, full_name: pub.full_name });
    assert.is(i.url, `${app.config.rootUrl}api/v1/repos/${pub.full_name}/issues/${i.number}`);
    assert.equal(await getIssue(app, pub, i.number, as), i, `${label}: read-after-write`);
    made.push(i.number);
  }
  assert.equal(made, made.map((_, k) => made[0]! + k), 'consecutive numbers');
  assert.is(await openCount(pub), before + 5, 'open_issues_count follows');
  const r = await create(priv, { title: 'private' }, p.reader.auth);
  assert.is(r.response.status, 201, 'reader of a private repository');
});

test('201: writers set labels, milestone, assignees and due date; a reader\'s are ignored', async () => {
  const label = await newLabel(app, pub, p.writer, { name: 'triage' });
  const ms = await newMilestone(app, pub, p.writer, { title: 'm-create' });
  const body: CreateIssueOption = {
    title: 't', labels: [label.id, 999_999], milestone: ms.id, assignee: p.writer.username, assignees: [p.owner.username], due_date: '2031-05-06T07:08:09Z', ref: 'main',
  };
  const byWriter = await create(pub, body, p.writer.auth);
  assert.is(byWriter.response.status, 201, JSON.stringify(byWriter.error));
  assertSpec('issueCreateIssue', byWriter);
  const w = byWriter.data!;
  assert.equal(w.labels.map((l) => l.id), [label.id], 'unknown label ids are dropped');
  assert.is(w.milestone!.id, ms.id);
  assert.is(w.milestone!.open_issues, 1);
  assert.equal(w.assignees.map((u) => u.login).sort(), [p.writer.username, p.owner.username].sort());
  assert.is(Date.parse(w.due_date!), Date.parse('2031-05-06T07:08:09Z'), 'stored as given');
  assert.is(w.ref, 'main');
  const byReader = await create(pub, body, p.reader.auth);
  assert.is(byReader.response.status, 201);
  const r = byReader.data!;
  assert.equal(r.labels, []);
  assert.is(r.milestone, null);
  assert.equal(r.assignees, []);
  assert.is(r.assignee, null);
  assert.is(r.due_date, null);
  assert.is(r.ref, 'main', 'ref is not a writer-only field');
});

test('201: closed: true creates the issue closed; the repository\'s open count does not move', async () => {
  const before = await openCount(pub);
  const r = await create(pub, { title: 'done already', closed: true }, p.writer.auth);
  assert.is(r.response.status, 201);
  assertSpec('issueCreateIssue', r);
  assert.is(r.data!.state, 'closed');
  assert.ok(r.data!.closed_at);
  assert.is(await openCount(pub), before);
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const anon = await create(pub, { title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('issueCreateIssue', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  for (const scopes of [['read:issue'], ['write:repository']]) {
    const r = await create(pub, { title: 'x' }, await app.token(p.writer, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assertSpec('issueCreateIssue', r);
    assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
  }
  assert.is((await create(pub, { title: 'x' }, await app.token(p.writer, ['write:issue']))).response.status, 201);
});

test('404: private repository for an outsider, unknown repository, issues unit disabled', async () => {
  const r = await create(priv, { title: 'x' }, p.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('issueCreateIssue', r);
  assertEmpty404(await create({ path: { owner: p.owner.username, repo: 'nope' } }, { title: 'x' }, p.admin.auth), 'unknown repository');
  const repo = await sharedRepo(app, p);
  await editRepo(app, repo, { has_issues: false });
  for (const as of [p.owner, p.admin]) assertEmpty404(await create(repo, { title: 'x' }, as.auth), `disabled: ${as.username}`);
});

test('422: empty or blank title, unknown assignee, a user who cannot be assigned, a milestone of another repository', async () => {
  const other = await newMilestone(app, priv, p.owner, { title: 'elsewhere' });
  const before = await openCount(pub);
  const cases: Array<[string, CreateIssueOption]> = [
    ['empty title', { title: '' }],
    ['blank title', { title: '   ' }],
    ['unknown assignee', { title: 'x', assignees: ['no-such-user'] }],
    ['assignee without write access', { title: 'x', assignees: [p.outsider.username] }],
    ['milestone of another repository', { title: 'x', milestone: other.id }],
  ];
  for (const [label, body] of cases) {
    const r = await create(pub, body, p.writer.auth);
    assert.is(r.response.status, 422, `${label}: ${r.response.status} ${JSON.stringify(r.error)}`);
    assertSpec('issueCreateIssue', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  const noTitle = await raw(app, 'POST', `/repos/${pub.full_name}/issues`, { body: '{"body":"x"}', authorization: p.writer.auth });
  assert.is(noTitle.response.status, 422, 'missing title');
  assert.is(await openCount(pub), before, 'nothing created');
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  await editRepo(app, repo, { archived: true });
  const r = await create(repo, { title: 'x' }, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueCreateIssue', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
});

test.run();
