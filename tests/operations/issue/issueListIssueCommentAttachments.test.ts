import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { attachmentWorld, newComment, newIssue, uploadToComment, uploadToIssue, type AttachmentWorld } from '../../helpers/attachments.js';
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

const list = (world: AttachmentWorld, id: number, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/comments/{id}/assets', { params: { path: { ...world.path, id }, query } });

test('200: the comment\'s attachments only, in upload order, paged', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const sibling = await newComment(app, w, issue.number, w.owner);
  const uploaded = [];
  for (const filename of ['1.txt', '2.txt', '3.txt']) uploaded.push((await uploadToComment(app, w, c.id, { filename }, w.owner)).data!);
  await uploadToComment(app, w, sibling.id, { filename: 'sibling.txt' }, w.owner);
  await uploadToIssue(app, w, issue.number, { filename: 'issue.txt' }, w.owner);

  const all = await list(w, c.id, w.owner.auth);
  assert.is(all.response.status, 200);
  assertSpec('issueListIssueCommentAttachments', all);
  assert.equal(all.data, uploaded);
  assert.is(all.response.headers.get('X-Total-Count'), '3');
  const page = await list(w, c.id, w.owner.auth, { page: 2, limit: 2 });
  assert.equal(page.data!.map((a) => a.name), ['3.txt']);
  assert.match(page.response.headers.get('Link') ?? '', /rel="prev"/);
  assert.equal((await list(w, sibling.id, w.owner.auth)).data!.map((a) => a.name), ['sibling.txt']);
});

test('200: anonymous on a public repository, a reader of a private one; an empty list', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  await uploadToComment(app, w, c.id, {}, w.owner);
  const anon = await list(w, c.id);
  assert.is(anon.response.status, 200);
  assert.is(anon.data!.length, 1);
  const privIssue = await newIssue(app, priv, priv.owner);
  const pc = await newComment(app, priv, privIssue.number, priv.owner);
  assert.equal((await list(priv, pc.id, priv.reader.auth)).data, []);
});

test('401: wrong credentials', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const r = await list(w, c.id, 'token 0123456789012345678901234567890123456789');
  assert.is(r.response.status, 401);
  assertSpec('issueListIssueCommentAttachments', r);
});

test('404: missing comment, a comment of another repository, private repository for outsiders, attachments disabled', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const missing = await list(w, 987654, w.owner.auth);
  assert.is(missing.response.status, 404);
  assertSpec('issueListIssueCommentAttachments', missing);
  assert.is((await list(other, c.id, w.owner.auth)).response.status, 404, 'comment of another repository');
  const privIssue = await newIssue(app, priv, priv.owner);
  const pc = await newComment(app, priv, privIssue.number, priv.owner);
  assert.is((await list(priv, pc.id, priv.outsider.auth)).response.status, 404);
  assert.is((await list(priv, pc.id)).response.status, 404);
  app.config.attachment.enabled = false;
  try {
    assert.is((await list(w, c.id, w.owner.auth)).response.status, 404);
  } finally {
    app.config.attachment.enabled = true;
  }
});

test.run();
