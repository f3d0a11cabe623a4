import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editIssue, editRepo, eventComments, historyOf, newComment, newIssue, people, sharedRepo,
  type Issue, type People, type Repo,
} from '../../helpers/issues.js';
import { messageOf, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

// Gitea's deprecated alias PATCH …/issues/{index}/comments/{id}: the same rules as issueEditComment, {index} ignored.
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

const edit = (repo: Repo, index: number, id: number, body: string, authorization?: string) =>
  app.client(authorization).PATCH('/repos/{owner}/{repo}/issues/{index}/comments/{id}', { params: { path: { ...repo.path, index, id } }, body: { body } });
const read = (repo: Repo, id: number) => app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id } } });

test('200: the poster edits through its own issue\'s index; the history records it as the new path does', async () => {
  const c = await newComment(app, pub, issue.number, p.reader, 'original');
  const r = await edit(pub, issue.number, c.id, 'second', p.reader.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('issueEditCommentDeprecated', r);
  assert.is(r.data!.id, c.id);
  assert.is(r.data!.body, 'second');
  assert.is(r.data!.user.login, p.reader.username);
  assert.is((await read(pub, c.id)).data!.body, 'second', 'read-after-write');
  assert.equal((await historyOf(app, issue.id, c.id)).map((h) => h.content), ['original', 'second']);
});

test('200: {index} is ignored, as in Gitea 1.26: another issue\'s index or one that does not exist', async () => {
  const c = await newComment(app, pub, issue.number, p.outsider, 'by outsider');
  for (const [label, index, as] of [['another issue', other.number, p.writer], ['no such issue', 999_999, p.owner], ['site admin', 0, p.admin]] as const) {
    const r = await edit(pub, index, c.id, `edited (${label})`, as.auth);
    assert.is(r.response.status, 200, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueEditCommentDeprecated', r);
    assert.is(r.data!.body, `edited (${label})`);
    assert.is(r.data!.issue_url.endsWith(`/issues/${issue.number}`), true, 'still the comment of its own issue');
  }
});

test('204: an event comment is left unchanged', async () => {
  const i = await newIssue(app, pub, p.writer);
  await editIssue(app, pub, i.number, p.writer, { state: 'closed' });
  const [event] = await eventComments(app, i.id, 'close');
  const r = await edit(pub, i.number, event!.id, 'text', p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueEditCommentDeprecated', r);
  assert.is((await eventComments(app, i.id, 'close'))[0]!.body, '');
});

test('403: a reader or outsider who did not post it; nothing changes', async () => {
  const c = await newComment(app, pub, issue.number, p.writer, 'keep me');
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await edit(pub, issue.number, c.id, 'nope', as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueEditCommentDeprecated', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  assert.is((await read(pub, c.id)).data!.body, 'keep me');
});

test('404: missing, a comment of another repository, a private repository for an outsider', async () => {
  assertEmpty404(await edit(pub, issue.number, 999_999, 'x', p.owner.auth), 'missing');
  const secret = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, secret.number, p.owner, 'elsewhere');
  const r = await edit(pub, secret.number, pc.id, 'x', p.admin.auth);
  assertEmpty404(r, 'another repository');
  assertSpec('issueEditCommentDeprecated', r);
  assertEmpty404(await edit(priv, secret.number, pc.id, 'x', p.outsider.auth), 'private outsider');
  assert.is((await read(priv, pc.id)).data!.body, 'elsewhere');
});

test('422: empty or missing body, an index that is not an integer', async () => {
  const c = await newComment(app, pub, issue.number, p.writer, 'unchanged');
  const r = await edit(pub, issue.number, c.id, '  ', p.writer.auth);
  assert.is(r.response.status, 422);
  assertSpec('issueEditCommentDeprecated', r);
  const missing = await raw(app, 'PATCH', `/repos/${pub.full_name}/issues/${issue.number}/comments/${c.id}`, { body: '{}', authorization: p.writer.auth });
  assert.is(missing.response.status, 422);
  const word = await raw(app, 'PATCH', `/repos/${pub.full_name}/issues/abc/comments/${c.id}`, { body: '{"body":"x"}', authorization: p.writer.auth });
  assert.is(word.response.status, 422);
  assert.is((await read(pub, c.id)).data!.body, 'unchanged');
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  const c = await newComment(app, repo, i.number, p.reader, 'frozen');
  await editRepo(app, repo, { archived: true });
  const r = await edit(repo, i.number, c.id, 'x', p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueEditCommentDeprecated', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const c = await newComment(app, pub, issue.number, p.reader);
  const anon = await edit(pub, issue.number, c.id, 'x');
  assert.is(anon.response.status, 401);
  assertSpec('issueEditCommentDeprecated', anon);
  const r = await edit(pub, issue.number, c.id, 'x', await app.token(p.reader, ['read:issue']));
  assert.is(r.response.status, 403);
  assertSpec('issueEditCommentDeprecated', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
});

test.run();
