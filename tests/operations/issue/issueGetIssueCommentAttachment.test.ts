import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachmentWorld, newComment, newIssue, uploadToComment, type AttachmentWorld } from '../../helpers/attachments.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: AttachmentWorld;
let priv: AttachmentWorld;

test.before(async () => {
  app = await startApp();
  w = await attachmentWorld(app);
  priv = await attachmentWorld(app, { private: true, reuse: w });
});
test.after(async () => {
  await app.close();
});

const get = (world: AttachmentWorld, id: number, attachment_id: number, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}', { params: { path: { ...world.path, id, attachment_id } } });

test('200: the comment\'s attachment for anyone who may read the issue; 404 for another comment\'s', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c1 = await newComment(app, w, issue.number, w.writer);
  const c2 = await newComment(app, w, issue.number, w.writer);
  const att = (await uploadToComment(app, w, c1.id, { filename: 'c.txt' }, w.writer)).data!;
  for (const auth of [undefined, w.outsider.auth]) {
    const r = await get(w, c1.id, att.id, auth);
    assert.is(r.response.status, 200);
    assertSpec('issueGetIssueCommentAttachment', r);
    assert.equal(r.data, att);
  }
  const other = await get(w, c2.id, att.id);
  assertEmpty404(other);
  assertSpec('issueGetIssueCommentAttachment', other);
  assertEmpty404(await get(w, c1.id, 999_999), 'missing');
});

test('404: a private repository for an outsider; 403: a token without read:issue', async () => {
  const issue = await newIssue(app, priv, priv.owner);
  const c = await newComment(app, priv, issue.number, priv.owner);
  const att = (await uploadToComment(app, priv, c.id, {}, priv.owner)).data!;
  assertEmpty404(await get(priv, c.id, att.id, priv.outsider.auth));
  assert.is((await get(priv, c.id, att.id, priv.reader.auth)).response.status, 200);
  const r = await get(priv, c.id, att.id, await app.token(priv.reader, ['read:user']));
  assert.is(r.response.status, 403);
  assertSpec('issueGetIssueCommentAttachment', r);
});

test.run();
