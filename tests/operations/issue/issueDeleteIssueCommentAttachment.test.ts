import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachmentWorld, newComment, newIssue, storedPath, uploadToComment, type AttachmentWorld } from '../../helpers/attachments.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: AttachmentWorld;

test.before(async () => {
  app = await startApp();
  w = await attachmentWorld(app);
});
test.after(async () => {
  await app.close();
});

const del = (id: number, attachment_id: number, auth?: string) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}', { params: { path: { ...w.path, id, attachment_id } } });

test('204: the comment\'s poster (a writer), the repository admin, the site admin; row and file go', async () => {
  for (const as of [w.writer, w.repoAdmin, w.admin]) {
    const issue = await newIssue(app, w, w.owner);
    const c = await newComment(app, w, issue.number, w.writer);
    const att = (await uploadToComment(app, w, c.id, {}, w.writer)).data!;
    const r = await del(c.id, att.id, as.auth);
    assert.is(r.response.status, 204, as.username);
    assertSpec('issueDeleteIssueCommentAttachment', r);
    assert.not.ok(existsSync(storedPath(app, att.uuid)));
    assertEmpty404(await del(c.id, att.id, as.auth), 'again');
  }
});

test('403: a writer who did not post the comment, a reader; 401 anonymous', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const att = (await uploadToComment(app, w, c.id, {}, w.owner)).data!;
  for (const as of [w.writer, w.reader]) {
    const r = await del(c.id, att.id, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('issueDeleteIssueCommentAttachment', r);
  }
  assert.is((await del(c.id, att.id)).response.status, 401);
  assert.ok(existsSync(storedPath(app, att.uuid)));
});

test.run();
