import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, comparable, editIssue, editRepo, eventComments, newComment, newIssue, people, sharedRepo, type Comment, type People, type Repo,
} from '../../helpers/issues.js';
import { raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
let onPub: Comment;
let onPriv: Comment;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  const [a, b] = await Promise.all([newIssue(app, pub, p.reader), newIssue(app, priv, p.owner)]);
  onPub = await newComment(app, pub, a.number, p.reader, 'public words');
  onPriv = await newComment(app, priv, b.number, p.reader, 'private words');
});
test.after(async () => {
  await app.close();
});

const get = (repo: Repo, id: number, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id } } });

test('200: every role that can read the issue — anonymous, outsider, reader, writer, owner, site admin', async () => {
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['reader', p.reader.auth], ['writer', p.writer.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    const r = await get(pub, onPub.id, auth);
    assert.is(r.response.status, 200, label);
    assertSpec('issueGetComment', r);
    assert.equal(comparable(r.data!), comparable(onPub), label);
  }
  for (const [label, auth] of [['reader', p.reader.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    const r = await get(priv, onPriv.id, auth);
    assert.is(r.response.status, 200, `private: ${label}`);
    assert.is(r.data!.body, 'private words');
    assert.is(r.data!.user.login, p.reader.username);
  }
});

test('204: an event comment (close) has no content', async () => {
  const issue = await newIssue(app, pub, p.writer);
  await editIssue(app, pub, issue.number, p.writer, { state: 'closed' });
  const [event] = await eventComments(app, issue.id, 'close');
  const r = await get(pub, event!.id, p.reader.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueGetComment', r);
});

test('404: missing, a comment of another repository, a private repository for anonymous and outsider, issues unit disabled', async () => {
  assertEmpty404(await get(pub, 999_999, p.owner.auth), 'missing');
  const r = await get(pub, onPriv.id, p.admin.auth);
  assertEmpty404(r, 'another repository');
  assertSpec('issueGetComment', r);
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth]] as const) assertEmpty404(await get(priv, onPriv.id, auth), label);
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  const c = await newComment(app, repo, i.number, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assertEmpty404(await get(repo, c.id, p.owner.auth), 'unit disabled');
});

test('403: a token without an issue scope; 422: an id that is not an integer', async () => {
  const r = await get(pub, onPub.id, await app.token(p.reader, ['read:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueGetComment', r);
  assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
  const bad = await raw(app, 'GET', `/repos/${pub.full_name}/issues/comments/abc`);
  assert.is(bad.response.status, 422);
});

test.run();
