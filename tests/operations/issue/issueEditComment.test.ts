import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, comparable, editIssue, editRepo, eventComments, historyOf, newComment, newIssue, people, sharedRepo,
  type Issue, type People, type Repo,
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
  issue = await newIssue(app, pub, p.owner);
});
test.after(async () => {
  await app.close();
});

const edit = (repo: Repo, id: number, body: string, authorization?: string) =>
  app.client(authorization).PATCH('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id } }, body: { body } });

const read = (repo: Repo, id: number) => app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id } } });

test('200: the poster (a reader) edits; content history keeps the original first, then each new text', async () => {
  const c = await newComment(app, pub, issue.number, p.reader, 'original text');
  const r = await edit(pub, c.id, 'second text', p.reader.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('issueEditComment', r);
  assert.is(r.data!.id, c.id);
  assert.is(r.data!.body, 'second text');
  assert.is(r.data!.user.login, p.reader.username, 'the poster stays');
  assert.is(r.data!.created_at, c.created_at);
  assert.ok(Date.parse(r.data!.updated_at) >= Date.parse(c.updated_at));
  assert.equal(comparable((await read(pub, c.id)).data!), comparable(r.data!), 'read-after-write');
  let h = await historyOf(app, issue.id, c.id);
  assert.is(h.length, 2);
  assert.equal([h[0]!.isFirstCreated, h[0]!.content, h[0]!.editorId], [true, 'original text', p.reader.id]);
  assert.is(Math.floor(h[0]!.createdAt.getTime() / 1000) * 1000, Date.parse(c.created_at), 'the original keeps the comment\'s time');
  assert.equal([h[1]!.isFirstCreated, h[1]!.content, h[1]!.editorId], [false, 'second text', p.reader.id]);
  await edit(pub, c.id, 'third text', p.writer.auth);
  h = await historyOf(app, issue.id, c.id);
  assert.equal(h.map((x) => [x.content, x.isFirstCreated, x.editorId]), [
    ['original text', true, p.reader.id], ['second text', false, p.reader.id], ['third text', false, p.writer.id],
  ], 'the original is saved only once');
  const same = await edit(pub, c.id, 'third text', p.writer.auth);
  assert.is(same.response.status, 200);
  assert.is((await historyOf(app, issue.id, c.id)).length, 3, 'an unchanged body adds no history');
  assert.is((await historyOf(app, issue.id, 0)).length, 0, 'the issue body\'s history is separate');
});

test('200: writers, the owner and the site admin edit others\' comments', async () => {
  const c = await newComment(app, pub, issue.number, p.outsider, 'by outsider');
  for (const [label, as] of [['writer', p.writer], ['owner', p.owner], ['site admin', p.admin]] as const) {
    const r = await edit(pub, c.id, `edited by ${label}`, as.auth);
    assert.is(r.response.status, 200, label);
    assertSpec('issueEditComment', r);
    assert.is(r.data!.body, `edited by ${label}`);
    assert.is(r.data!.user.login, p.outsider.username);
  }
  const secret = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, secret.number, p.reader, 'mine');
  assert.is((await edit(priv, pc.id, 'still mine', p.reader.auth)).response.status, 200, 'poster on a private repository');
});

test('204: an event comment is left unchanged', async () => {
  const i = await newIssue(app, pub, p.writer);
  await editIssue(app, pub, i.number, p.writer, { state: 'closed' });
  const [event] = await eventComments(app, i.id, 'close');
  const r = await edit(pub, event!.id, 'text', p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueEditComment', r);
  const [after] = await eventComments(app, i.id, 'close');
  assert.is(after!.body, '');
});

test('403: a reader or outsider who did not post it; nothing changes', async () => {
  const c = await newComment(app, pub, issue.number, p.writer, 'keep me');
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await edit(pub, c.id, 'nope', as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueEditComment', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  assert.is((await read(pub, c.id)).data!.body, 'keep me');
  assert.is((await historyOf(app, issue.id, c.id)).length, 0);
});

test('404: missing, a comment of another repository, a private repository for an outsider', async () => {
  assertEmpty404(await edit(pub, 999_999, 'x', p.owner.auth), 'missing');
  const secret = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, secret.number, p.owner, 'elsewhere');
  const r = await edit(pub, pc.id, 'x', p.owner.auth);
  assertEmpty404(r, 'comment of another repository, even for its poster');
  assertSpec('issueEditComment', r);
  assertEmpty404(await edit(pub, pc.id, 'x', p.admin.auth), 'another repository, site admin');
  assertEmpty404(await edit(priv, pc.id, 'x', p.outsider.auth), 'private outsider');
  assert.is((await read(priv, pc.id)).data!.body, 'elsewhere');
});

test('422: empty, blank or missing body', async () => {
  const c = await newComment(app, pub, issue.number, p.writer, 'unchanged');
  for (const body of ['', '   ']) {
    const r = await edit(pub, c.id, body, p.writer.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('issueEditComment', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  const missing = await raw(app, 'PATCH', `/repos/${pub.full_name}/issues/comments/${c.id}`, { body: '{}', authorization: p.writer.auth });
  assert.is(missing.response.status, 422);
  assert.is((await read(pub, c.id)).data!.body, 'unchanged');
});

test('423: an archived repository, for the poster and the owner', async () => {
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  const c = await newComment(app, repo, i.number, p.reader, 'frozen');
  await editRepo(app, repo, { archived: true });
  for (const as of [p.reader, p.owner]) {
    const r = await edit(repo, c.id, 'x', as.auth);
    assert.is(r.response.status, 423, as.username);
    assertSpec('issueEditComment', r);
    assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
  }
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const c = await newComment(app, pub, issue.number, p.reader);
  const anon = await edit(pub, c.id, 'x');
  assert.is(anon.response.status, 401);
  assertSpec('issueEditComment', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  const r = await edit(pub, c.id, 'x', await app.token(p.reader, ['read:issue', 'write:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueEditComment', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
});

test.run();
