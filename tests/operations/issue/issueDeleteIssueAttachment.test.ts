import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachmentWorld, newIssue, storedPath, uploadToIssue, type AttachmentWorld } from '../../helpers/attachments.js';
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

const del = (index: number, attachment_id: number, auth?: string) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}', { params: { path: { ...w.path, index, attachment_id } } });
const list = (index: number) => app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/assets', { params: { path: { ...w.path, index } } });

test('204: the poster, a writer or an admin deletes; row and file go; the issue lists it no more', async () => {
  for (const as of [w.reader, w.writer, w.admin]) {
    const issue = await newIssue(app, w, w.reader);
    const att = (await uploadToIssue(app, w, issue.number, {}, w.reader)).data!;
    assert.ok(existsSync(storedPath(app, att.uuid)));
    const r = await del(issue.number, att.id, as.auth);
    assert.is(r.response.status, 204, as.username);
    assertSpec('issueDeleteIssueAttachment', r);
    assert.not.ok(existsSync(storedPath(app, att.uuid)), 'file gone');
    assert.equal((await list(issue.number)).data, []);
    assertEmpty404(await del(issue.number, att.id, as.auth), 'again');
  }
});

test('403: a reader who did not post it; 401: anonymous; the attachment stays', async () => {
  const issue = await newIssue(app, w, w.writer);
  const att = (await uploadToIssue(app, w, issue.number, {}, w.writer)).data!;
  const r = await del(issue.number, att.id, w.reader.auth);
  assert.is(r.response.status, 403);
  assertSpec('issueDeleteIssueAttachment', r);
  assert.is((await del(issue.number, att.id)).response.status, 401);
  assert.is((await list(issue.number)).data!.length, 1);
});

test.run();
