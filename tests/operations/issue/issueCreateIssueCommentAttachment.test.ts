import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { comments } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertNothingLeft, attachmentDir, attachmentRowCount, attachmentWorld, filesUnder, newComment, newIssue, rawUpload, storedPath,
  tmpDir, until, uploadToComment, writeBytes, type AttachmentWorld,
} from '../../helpers/attachments.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

const MiB = 1024 * 1024;
let app: TestApp;
let w: AttachmentWorld;
let other: AttachmentWorld;
let priv: AttachmentWorld;

test.before(async () => {
  app = await startApp({ ATTACHMENT_MAX_SIZE: '1' });
  w = await attachmentWorld(app);
  other = await attachmentWorld(app, { reuse: w });
  priv = await attachmentWorld(app, { private: true, reuse: w });
});
test.after(async () => {
  await app.close();
});

const commentAssets = (world: AttachmentWorld, id: number) => `/repos/${world.path.owner}/${world.path.repo}/issues/comments/${id}/assets`;

test('201: the poster who can write, a repository admin, the owner and the site admin', async () => {
  const issue = await newIssue(app, w, w.owner);
  const byWriter = await newComment(app, w, issue.number, w.writer);
  const cases = [
    ['poster with write access', w.writer],
    ['repository admin', w.repoAdmin],
    ['owner', w.owner],
    ['site admin', w.admin],
  ] as const;
  for (const [label, as] of cases) {
    const r = await uploadToComment(app, w, byWriter.id, { filename: 'log.txt', content: label }, as);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueCreateIssueCommentAttachment', r);
    assert.is(r.data!.name, 'log.txt');
    assert.is(r.data!.size, label.length);
    assert.is(readFileSync(storedPath(app, r.data!.uuid), 'utf8'), label);
  }
  // The comment shows them; the issue's own list does not.
  const got = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...w.path, id: byWriter.id } } });
  assert.is(got.data!.assets.length, 4);
  const own = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/assets', { params: { path: { ...w.path, index: issue.number } } });
  assert.equal(own.data, []);
  assert.equal(filesUnder(tmpDir(app)), []);
});

test('?name= overrides; names are sanitised', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const named = await uploadToComment(app, w, c.id, { filename: 'part.txt' }, w.owner, 'other.md');
  assert.is(named.data!.name, 'other.md');
  const kept = await uploadToComment(app, w, c.id, { filename: 'part.txt' }, w.owner, '');
  assert.is(kept.data!.name, 'part.txt');
  const clean = await uploadToComment(app, w, c.id, { filename: 'a/b/../c\u0001d.txt' }, w.owner);
  assert.is(clean.data!.name, 'cd.txt');
  const empty = await uploadToComment(app, w, c.id, { filename: 'x.txt' }, w.owner, ' / ');
  assert.is(empty.response.status, 422);
  assertSpec('issueCreateIssueCommentAttachment', empty);
});

test('403: the poster without write access, a writer who is not the poster, a reader, an outsider', async () => {
  const issue = await newIssue(app, w, w.owner);
  const byOutsider = await newComment(app, w, issue.number, w.outsider);
  const byOwner = await newComment(app, w, issue.number, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const cases = [
    ['poster without write access', byOutsider, w.outsider],
    ['writer, not the poster', byOwner, w.writer],
    ['reader', byOwner, w.reader],
    ['outsider', byOwner, w.outsider],
  ] as const;
  for (const [label, comment, as] of cases) {
    const r = await uploadToComment(app, w, comment.id, {}, as);
    assert.is(r.response.status, 403, label);
    assertSpec('issueCreateIssueCommentAttachment', r);
    assert.is(messageOf(r.error), 'user should have permission to edit comment');
  }
  await assertNothingLeft(app, rows, files, '403');
});

test('400: an event comment cannot carry attachments', async () => {
  const issue = await newIssue(app, w, w.owner);
  const edited = await app.client(w.owner.auth).PATCH('/repos/{owner}/{repo}/issues/{index}', {
    params: { path: { ...w.path, index: issue.number } },
    body: { title: 'a new title' },
  });
  assert.is(edited.response.status, 201);
  const [event] = await app.services.deps.db.select().from(comments).where(and(eq(comments.issueId, issue.id), eq(comments.type, 'change_title')));
  assert.ok(event, 'the title change left an event comment');
  const r = await uploadToComment(app, w, event!.id, {}, w.owner);
  assert.is(r.response.status, 400);
  assertSpec('issueCreateIssueCommentAttachment', r);
  assert.equal(filesUnder(tmpDir(app)), []);
});

test('401: anonymous', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const r = await uploadToComment(app, w, c.id, {});
  assert.is(r.response.status, 401);
  assertSpec('issueCreateIssueCommentAttachment', r);
});

test('404: missing comment, a comment of another repository, private repository for outsiders, attachments disabled', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const missing = await uploadToComment(app, w, 999999, {}, w.owner);
  assert.is(missing.response.status, 404);
  assertSpec('issueCreateIssueCommentAttachment', missing);
  const elsewhere = await uploadToComment(app, other, c.id, {}, w.owner);
  assert.is(elsewhere.response.status, 404, 'the comment belongs to another repository');
  const privIssue = await newIssue(app, priv, priv.owner);
  const privComment = await newComment(app, priv, privIssue.number, priv.owner);
  assert.is((await uploadToComment(app, priv, privComment.id, {}, priv.outsider)).response.status, 404);
  app.config.attachment.enabled = false;
  try {
    assert.is((await uploadToComment(app, w, c.id, {}, w.owner)).response.status, 404);
  } finally {
    app.config.attachment.enabled = true;
  }
  assert.equal(filesUnder(tmpDir(app)), []);
});

test('422: no attachment part; a type not allowed', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const none = await uploadToComment(app, w, c.id, null, w.owner);
  assert.is(none.response.status, 422);
  assertSpec('issueCreateIssueCommentAttachment', none);
  const bad = await uploadToComment(app, w, c.id, { filename: 'file.bad' }, w.owner);
  assert.is(bad.response.status, 422);
  assertSpec('issueCreateIssueCommentAttachment', bad);
  await assertNothingLeft(app, rows, files, '422');
});

test('423: archived repository', async () => {
  const world = await attachmentWorld(app, { reuse: w });
  const issue = await newIssue(app, world, world.owner);
  const c = await newComment(app, world, issue.number, world.owner);
  await app.client(world.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: world.path }, body: { archived: true } });
  const r = await uploadToComment(app, world, c.id, {}, world.owner);
  assert.is(r.response.status, 423);
  assertSpec('issueCreateIssueCommentAttachment', r);
});

test('413: too large, declared or streamed; nothing left behind', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const declared = await uploadToComment(app, w, c.id, { content: new Uint8Array(2 * MiB) }, w.owner);
  assert.is(declared.response.status, 413);
  assertSpec('issueCreateIssueCommentAttachment', declared);
  const up = rawUpload(app, commentAssets(w, c.id), { auth: w.owner.auth, chunked: true });
  up.req.write(up.head);
  await writeBytes(up.req, MiB + 1);
  up.req.end(up.tail);
  const answer = await up.response;
  assert.is(answer.status, 413);
  assertSpecAnswer('issueCreateIssueCommentAttachment', answer.status, JSON.parse(answer.text));
  await until(() => filesUnder(tmpDir(app)).length === 0, 'tmp/ to be empty');
  await assertNothingLeft(app, rows, files, '413');
});

test.run();
