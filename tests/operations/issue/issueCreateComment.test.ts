import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, comparable, editRepo, getIssue, lockIssue, newIssue, people, sharedRepo, type Issue, type People, type Repo,
} from '../../helpers/issues.js';
import { messageOf, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
let issue: Issue;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  issue = await newIssue(app, pub, p.reader);
});
test.after(async () => {
  await app.close();
});

const create = (repo: Repo, index: number, body: string, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...repo.path, index } }, body: { body } });

test('201: every signed-in role that can read — poster, outsider (public), reader, writer, owner, site admin; comments count and updated_at follow', async () => {
  const before = await getIssue(app, pub, issue.number);
  const roles = [['poster', p.reader], ['outsider', p.outsider], ['writer', p.writer], ['owner', p.owner], ['site admin', p.admin]] as const;
  for (const [label, as] of roles) {
    const r = await create(pub, issue.number, `by ${label}`, as.auth);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueCreateComment', r);
    const c = r.data!;
    assert.is(c.body, `by ${label}`);
    assert.is(c.user.login, as.username);
    assert.is(c.html_url, `${app.config.rootUrl}${pub.full_name}/issues/${issue.number}#issuecomment-${c.id}`);
    assert.is(c.issue_url, `${app.config.rootUrl}${pub.full_name}/issues/${issue.number}`);
    assert.is(c.pull_request_url, '');
    assert.equal(c.assets, []);
    assert.is(c.created_at, c.updated_at);
    const read = await app.client().GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...pub.path, id: c.id } } });
    assert.equal(comparable(read.data!), comparable(c), `${label}: read-after-write`);
  }
  const after = await getIssue(app, pub, issue.number);
  assert.is(after.comments, before.comments + roles.length);
  assert.ok(Date.parse(after.updated_at) >= Date.parse(before.updated_at));
  const secret = await newIssue(app, priv, p.owner);
  assert.is((await create(priv, secret.number, 'member', p.reader.auth)).response.status, 201, 'reader of a private repository');
});

test('201: a long body whose 200th UTF-16 unit starts a surrogate pair (the feed keeps 200 units, never half a pair)', async () => {
  const body = '.😀0%_'.repeat(150); // unit 199 is the first half of an emoji
  const res = await create(pub, issue.number, body, p.owner.auth);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assert.is(res.data!.body, body);
});

test('201: a 9 MB body of one reference repeated is read in bounded time, and references once', async () => {
  const target = await newIssue(app, pub, p.reader);
  const started = Date.now();
  const made = await create(pub, issue.number, `#${target.number} `.repeat(Math.floor(9_000_000 / (String(target.number).length + 2))), p.writer.auth);
  assert.is(made.response.status, 201);
  assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  const timeline = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/timeline', { params: { path: { ...pub.path, index: target.number } } });
  assert.equal(timeline.data!.filter((e) => e.type === 'comment_ref').map((e) => e.ref_comment?.id), [made.data!.id]);
});

test('403: a locked issue for non-writers; writers and the site admin still comment', async () => {
  const locked = await newIssue(app, pub, p.reader);
  await lockIssue(app, locked.id);
  for (const [label, as] of [['poster', p.reader], ['outsider', p.outsider]] as const) {
    const r = await create(pub, locked.number, 'x', as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueCreateComment', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  for (const as of [p.writer, p.owner, p.admin]) assert.is((await create(pub, locked.number, 'ok', as.auth)).response.status, 201, as.username);
  assert.is((await getIssue(app, pub, locked.number)).comments, 3);
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const anon = await create(pub, issue.number, 'x');
  assert.is(anon.response.status, 401);
  assertSpec('issueCreateComment', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  const r = await create(pub, issue.number, 'x', await app.token(p.reader, ['read:issue']));
  assert.is(r.response.status, 403);
  assertSpec('issueCreateComment', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
});

test('404: missing issue, private repository for an outsider, issues unit disabled', async () => {
  const r = await create(pub, 999_999, 'x', p.owner.auth);
  assertEmpty404(r, 'missing');
  assertSpec('issueCreateComment', r);
  const secret = await newIssue(app, priv, p.owner);
  assertEmpty404(await create(priv, secret.number, 'x', p.outsider.auth), 'private outsider');
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assertEmpty404(await create(repo, i.number, 'x', p.owner.auth), 'unit disabled');
});

test('422: empty, blank or missing body; nothing is counted', async () => {
  const before = (await getIssue(app, pub, issue.number)).comments;
  for (const body of ['', '  \n ']) {
    const r = await create(pub, issue.number, body, p.writer.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('issueCreateComment', r);
  }
  const missing = await raw(app, 'POST', `/repos/${pub.full_name}/issues/${issue.number}/comments`, { body: '{}', authorization: p.writer.auth });
  assert.is(missing.response.status, 422);
  assert.is((await getIssue(app, pub, issue.number)).comments, before);
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const r = await create(repo, i.number, 'x', p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueCreateComment', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
});

test.run();
