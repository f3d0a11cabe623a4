import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachmentWorld, newComment, newIssue, uploadToComment, uploadToIssue, type AttachmentWorld } from '../../helpers/attachments.js';
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

const get = (world: AttachmentWorld, index: number, attachment_id: number, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}', { params: { path: { ...world.path, index, attachment_id } } });

test('200: the issue\'s own attachment and its comments\', for anyone who may read the issue', async () => {
  const issue = await newIssue(app, w, w.reader);
  const own = (await uploadToIssue(app, w, issue.number, { filename: 'a.txt' }, w.reader)).data!;
  const c = await newComment(app, w, issue.number, w.writer);
  const onComment = (await uploadToComment(app, w, c.id, { filename: 'b.txt' }, w.writer)).data!;
  for (const auth of [undefined, w.outsider.auth, w.reader.auth]) {
    const r = await get(w, issue.number, own.id, auth);
    assert.is(r.response.status, 200);
    assertSpec('issueGetIssueAttachment', r);
    assert.equal(r.data, own);
  }
  assert.is((await get(w, issue.number, onComment.id)).data!.name, 'b.txt');
});

test('404: another issue\'s attachment, missing, a private repository for an outsider', async () => {
  const a = await newIssue(app, w, w.owner);
  const b = await newIssue(app, w, w.owner);
  const att = (await uploadToIssue(app, w, a.number, {}, w.owner)).data!;
  assertEmpty404(await get(w, b.number, att.id), 'other issue');
  assertEmpty404(await get(w, a.number, 999_999), 'missing');
  assertEmpty404(await get(w, 999, att.id), 'missing issue');
  const p = await newIssue(app, priv, priv.owner);
  const patt = (await uploadToIssue(app, priv, p.number, {}, priv.owner)).data!;
  const r = await get(priv, p.number, patt.id, priv.outsider.auth);
  assertEmpty404(r, 'private');
  assertSpec('issueGetIssueAttachment', r);
  assert.is((await get(priv, p.number, patt.id, priv.reader.auth)).response.status, 200);
});

test('403: a token without read:issue', async () => {
  const i = await newIssue(app, w, w.owner);
  const att = (await uploadToIssue(app, w, i.number, {}, w.owner)).data!;
  const r = await get(w, i.number, att.id, await app.token(w.reader, ['read:user']));
  assert.is(r.response.status, 403);
  assertSpec('issueGetIssueAttachment', r);
});

test.run();
