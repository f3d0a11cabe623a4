import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editIssue, editRepo, eventComments, getIssue, newComment, newIssue, people, sharedRepo, type Issue, type People, type Repo,
} from '../../helpers/issues.js';
import { messageOf, swaggerOf } from '../../helpers/repos.js';
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
  issue = await newIssue(app, pub, p.owner);
});
test.after(async () => {
  await app.close();
});

const del = (repo: Repo, id: number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id } } });
const read = (repo: Repo, id: number) => app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id } } });

test('204: the poster (a reader), writers, the owner and the site admin delete; the count goes down; a later GET is 404', async () => {
  const roles = [['poster', p.reader, p.reader], ['writer', p.writer, p.outsider], ['owner', p.owner, p.reader], ['site admin', p.admin, p.writer]] as const;
  for (const [label, as, poster] of roles) {
    const c = await newComment(app, pub, issue.number, poster, `to go (${label})`);
    const before = (await getIssue(app, pub, issue.number)).comments;
    const r = await del(pub, c.id, as.auth);
    assert.is(r.response.status, 204, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueDeleteComment', r);
    assert.is((await getIssue(app, pub, issue.number)).comments, before - 1, label);
    assertEmpty404(await read(pub, c.id), `${label}: gone`);
    assertEmpty404(await del(pub, c.id, as.auth), `${label}: a second delete`);
  }
  const secret = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, secret.number, p.reader);
  assert.is((await del(priv, pc.id, p.reader.auth)).response.status, 204, 'poster on a private repository');
});

test('204: an event comment is left in place', async () => {
  const i = await newIssue(app, pub, p.writer);
  await editIssue(app, pub, i.number, p.writer, { state: 'closed' });
  const [event] = await eventComments(app, i.id, 'close');
  const r = await del(pub, event!.id, p.writer.auth);
  assert.is(r.response.status, 204);
  assert.is((await eventComments(app, i.id, 'close')).length, 1);
});

test('403: a reader or outsider who did not post it; the comment stays', async () => {
  const c = await newComment(app, pub, issue.number, p.writer, 'stays');
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await del(pub, c.id, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueDeleteComment', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  assert.is((await read(pub, c.id)).response.status, 200);
});

test('404: missing, a comment of another repository, a private repository for an outsider, issues unit disabled', async () => {
  assertEmpty404(await del(pub, 999_999, p.owner.auth), 'missing');
  const secret = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, secret.number, p.owner);
  const r = await del(pub, pc.id, p.admin.auth);
  assertEmpty404(r, 'another repository');
  assertSpec('issueDeleteComment', r);
  assertEmpty404(await del(priv, pc.id, p.outsider.auth), 'private outsider');
  assert.is((await read(priv, pc.id)).response.status, 200, 'still there');
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  const c = await newComment(app, repo, i.number, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assertEmpty404(await del(repo, c.id, p.owner.auth), 'unit disabled');
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  const c = await newComment(app, repo, i.number, p.reader);
  await editRepo(app, repo, { archived: true });
  for (const as of [p.reader, p.owner]) {
    const r = await del(repo, c.id, as.auth);
    assert.is(r.response.status, 423, as.username);
    assertSpec('issueDeleteComment', r);
    assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
  }
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const c = await newComment(app, pub, issue.number, p.reader);
  const anon = await del(pub, c.id);
  assert.is(anon.response.status, 401);
  assertSpec('issueDeleteComment', anon);
  const r = await del(pub, c.id, await app.token(p.reader, ['read:issue']));
  assert.is(r.response.status, 403);
  assertSpec('issueDeleteComment', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
  assert.is((await read(pub, c.id)).response.status, 200);
});

test.run();
