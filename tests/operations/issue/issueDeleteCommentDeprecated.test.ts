import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editIssue, editRepo, eventComments, getIssue, newComment, newIssue, people, sharedRepo, type Issue, type People, type Repo,
} from '../../helpers/issues.js';
import { messageOf, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

// Gitea's deprecated alias DELETE …/issues/{index}/comments/{id}: the same rules as issueDeleteComment, {index} ignored.
let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
let issue: Issue;
let other: Issue;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  issue = await newIssue(app, pub, p.owner);
  other = await newIssue(app, pub, p.owner);
});
test.after(async () => {
  await app.close();
});

const del = (repo: Repo, index: number, id: number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/issues/{index}/comments/{id}', { params: { path: { ...repo.path, index, id } } });
const read = (repo: Repo, id: number) => app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id } } });

test('204: the poster, writers, the owner and the site admin delete, through any {index}; the comment\'s own issue counts one fewer', async () => {
  const roles = [['poster', p.reader, p.reader, issue.number], ['writer', p.writer, p.outsider, other.number],
    ['owner', p.owner, p.reader, 999_999], ['site admin', p.admin, p.writer, issue.number]] as const;
  for (const [label, as, poster, index] of roles) {
    const c = await newComment(app, pub, issue.number, poster, `to go (${label})`);
    const [before, otherBefore] = [(await getIssue(app, pub, issue.number)).comments, (await getIssue(app, pub, other.number)).comments];
    const r = await del(pub, index, c.id, as.auth);
    assert.is(r.response.status, 204, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueDeleteCommentDeprecated', r);
    assert.is((await getIssue(app, pub, issue.number)).comments, before - 1, label);
    assert.is((await getIssue(app, pub, other.number)).comments, otherBefore, `${label}: the issue of {index} is untouched`);
    assertEmpty404(await read(pub, c.id), `${label}: gone`);
    assertEmpty404(await del(pub, index, c.id, as.auth), `${label}: a second delete`);
  }
});

test('204: an event comment is left in place', async () => {
  const i = await newIssue(app, pub, p.writer);
  await editIssue(app, pub, i.number, p.writer, { state: 'closed' });
  const [event] = await eventComments(app, i.id, 'close');
  const r = await del(pub, i.number, event!.id, p.writer.auth);
  assert.is(r.response.status, 204);
  assert.is((await eventComments(app, i.id, 'close')).length, 1);
});

test('403: a reader or outsider who did not post it; the comment stays', async () => {
  const c = await newComment(app, pub, issue.number, p.writer, 'stays');
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await del(pub, issue.number, c.id, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueDeleteCommentDeprecated', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  assert.is((await read(pub, c.id)).response.status, 200);
});

test('404: missing, a comment of another repository, a private repository for an outsider', async () => {
  assertEmpty404(await del(pub, issue.number, 999_999, p.owner.auth), 'missing');
  const secret = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, secret.number, p.owner);
  const r = await del(pub, secret.number, pc.id, p.admin.auth);
  assertEmpty404(r, 'another repository');
  assertSpec('issueDeleteCommentDeprecated', r);
  assertEmpty404(await del(priv, secret.number, pc.id, p.outsider.auth), 'private outsider');
  assert.is((await read(priv, pc.id)).response.status, 200, 'still there');
});

test('422: an index or id that is not an integer', async () => {
  const c = await newComment(app, pub, issue.number, p.writer);
  for (const path of [`issues/abc/comments/${c.id}`, `issues/${issue.number}/comments/abc`]) {
    const r = await raw(app, 'DELETE', `/repos/${pub.full_name}/${path}`, { authorization: p.writer.auth });
    assert.is(r.response.status, 422, path);
  }
  assert.is((await read(pub, c.id)).response.status, 200);
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  const c = await newComment(app, repo, i.number, p.reader);
  await editRepo(app, repo, { archived: true });
  const r = await del(repo, i.number, c.id, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueDeleteCommentDeprecated', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const c = await newComment(app, pub, issue.number, p.reader);
  const anon = await del(pub, issue.number, c.id);
  assert.is(anon.response.status, 401);
  assertSpec('issueDeleteCommentDeprecated', anon);
  const r = await del(pub, issue.number, c.id, await app.token(p.reader, ['read:issue']));
  assert.is(r.response.status, 403);
  assertSpec('issueDeleteCommentDeprecated', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
  assert.is((await read(pub, c.id)).response.status, 200);
});

test.run();
