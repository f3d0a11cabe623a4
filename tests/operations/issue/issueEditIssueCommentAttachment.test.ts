import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  attachmentWorld, newComment, newIssue, storedPath, uploadToComment, uploadToIssue, type Attachment, type AttachmentWorld, type Comment,
} from '../../helpers/attachments.js';
import { messageOf, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: AttachmentWorld;
let other: AttachmentWorld;
let priv: AttachmentWorld;

test.before(async () => {
  app = await startApp();
  w = await attachmentWorld(app);
  other = await attachmentWorld(app, { reuse: w });
  priv = await attachmentWorld(app, { private: true, reuse: w });
});
test.after(async () => {
  await app.close();
});

const rename = (world: AttachmentWorld, id: number, attachmentId: number, name: string | null | undefined, auth?: string) =>
  app.client(auth).PATCH('/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}', {
    params: { path: { ...world.path, id, attachment_id: attachmentId } },
    body: name === undefined ? {} : { name },
  });

/** A comment by `poster` on a new issue, with one attachment. */
async function commentWithFile(world: AttachmentWorld, poster: Actor): Promise<{ comment: Comment; file: Attachment }> {
  const issue = await newIssue(app, world, world.owner);
  const comment = await newComment(app, world, issue.number, poster);
  const up = await uploadToComment(app, world, comment.id, { filename: 'old.txt', content: 'kept' }, world.owner);
  assert.is(up.response.status, 201);
  return { comment, file: up.data! };
}

test('201: the poster who can write, a repository admin, the owner, the site admin; only the name changes', async () => {
  const { comment, file } = await commentWithFile(w, w.writer);
  const cases = [
    ['poster with write access', w.writer],
    ['repository admin', w.repoAdmin],
    ['owner', w.owner],
    ['site admin', w.admin],
  ] as const;
  for (const [label, as] of cases) {
    const name = `${label.replaceAll(' ', '-')}.txt`;
    const r = await rename(w, comment.id, file.id, name, as.auth);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueEditIssueCommentAttachment', r);
    assert.equal(r.data, { ...file, name }, label);
  }
  assert.is(readFileSync(storedPath(app, file.uuid), 'utf8'), 'kept');
  const listed = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}/assets', { params: { path: { ...w.path, id: comment.id } } });
  assert.is(listed.data![0]!.name, 'site-admin.txt');
});

test('201: an empty, null or missing name changes nothing; names are sanitised', async () => {
  const { comment, file } = await commentWithFile(w, w.owner);
  for (const name of ['', null, undefined]) {
    const r = await rename(w, comment.id, file.id, name, w.owner.auth);
    assert.is(r.response.status, 201, JSON.stringify(name));
    assert.is(r.data!.name, 'old.txt');
  }
  const r = await rename(w, comment.id, file.id, '../x/\u0000\u001bnew.md ', w.owner.auth);
  assert.is(r.response.status, 422, 'a NUL is refused outright');
  const clean = await rename(w, comment.id, file.id, '../x/\u001bnew.md ', w.owner.auth);
  assert.is(clean.response.status, 201);
  assert.is(clean.data!.name, 'new.md');
});

test('401: anonymous', async () => {
  const { comment, file } = await commentWithFile(w, w.owner);
  const r = await rename(w, comment.id, file.id, 'x.txt');
  assert.is(r.response.status, 401);
  assertSpec('issueEditIssueCommentAttachment', r);
});

test('403: a writer who is not the poster, the poster without write access, a reader, an outsider', async () => {
  const mine = await commentWithFile(w, w.owner);
  const outsiders = await commentWithFile(w, w.outsider);
  const cases = [
    ['writer, not the poster', mine, w.writer],
    ['poster without write access', outsiders, w.outsider],
    ['reader', mine, w.reader],
    ['outsider', mine, w.outsider],
  ] as const;
  for (const [label, { comment, file }, as] of cases) {
    const r = await rename(w, comment.id, file.id, 'x.txt', as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueEditIssueCommentAttachment', r);
    assert.is(messageOf(r.error), 'user should have permission to edit comment');
  }
});

test('404: comment or attachment missing, of another repository or another comment, an issue\'s own attachment; private; disabled', async () => {
  const { comment, file } = await commentWithFile(w, w.owner);
  const second = await commentWithFile(w, w.owner);
  const issue = await newIssue(app, w, w.owner);
  const onIssue = (await uploadToIssue(app, w, issue.number, {}, w.owner)).data!;
  const onIssueComment = await newComment(app, w, issue.number, w.owner);
  const cases: Array<[string, AttachmentWorld, number, number]> = [
    ['missing comment', w, 999999, file.id],
    ['missing attachment', w, comment.id, 999999],
    ['comment of another repository', other, comment.id, file.id],
    ['attachment of another comment', w, comment.id, second.file.id],
    ['attachment of the issue itself', w, onIssueComment.id, onIssue.id],
  ];
  for (const [label, world, id, attachmentId] of cases) {
    const r = await rename(world, id, attachmentId, 'x.txt', w.owner.auth);
    assert.is(r.response.status, 404, label);
    assertSpec('issueEditIssueCommentAttachment', r);
  }
  const hidden = await commentWithFile(priv, priv.owner);
  assert.is((await rename(priv, hidden.comment.id, hidden.file.id, 'x.txt', priv.outsider.auth)).response.status, 404);
  app.config.attachment.enabled = false;
  try {
    assert.is((await rename(w, comment.id, file.id, 'x.txt', w.owner.auth)).response.status, 404);
  } finally {
    app.config.attachment.enabled = true;
  }
});

test('422: the new name\'s type is not allowed, or nothing is left of it', async () => {
  const { comment, file } = await commentWithFile(w, w.owner);
  for (const name of ['file.bad', 'noextension', ' / ']) {
    const r = await rename(w, comment.id, file.id, name, w.owner.auth);
    assert.is(r.response.status, 422, name);
    assertSpec('issueEditIssueCommentAttachment', r);
  }
  const listed = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}/assets', { params: { path: { ...w.path, id: comment.id } } });
  assert.is(listed.data![0]!.name, 'old.txt', 'unchanged');
});

test('423: archived repository', async () => {
  const world = await attachmentWorld(app, { reuse: w });
  const { comment, file } = await commentWithFile(world, world.owner);
  await app.client(world.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: world.path }, body: { archived: true } });
  const r = await rename(world, comment.id, file.id, 'x.txt', world.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueEditIssueCommentAttachment', r);
});

test.run();
