import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { attachmentWorld, newComment, newIssue, uploadToComment, uploadToIssue, type AttachmentWorld } from '../../helpers/attachments.js';
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

const list = (world: AttachmentWorld, index: number, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/{index}/assets', { params: { path: { ...world.path, index }, query } });

test('200: the issue\'s own attachments in upload order, not its comments\'; paged with X-Total-Count and Link', async () => {
  const issue = await newIssue(app, w, w.owner);
  const names = ['a.txt', 'b.txt', 'c.txt'];
  const uploaded = [];
  for (const filename of names) {
    const r = await uploadToIssue(app, w, issue.number, { filename }, w.owner);
    assert.is(r.response.status, 201);
    uploaded.push(r.data!);
  }
  const c = await newComment(app, w, issue.number, w.owner);
  assert.is((await uploadToComment(app, w, c.id, { filename: 'on-comment.txt' }, w.owner)).response.status, 201);

  const all = await list(w, issue.number, w.owner.auth);
  assert.is(all.response.status, 200);
  assertSpec('issueListIssueAttachments', all);
  assert.equal(all.data, uploaded, 'what the uploads answered, in order');
  assert.is(all.response.headers.get('X-Total-Count'), '3');

  const first = await list(w, issue.number, w.owner.auth, { page: 1, limit: 2 });
  assert.equal(first.data!.map((a) => a.name), ['a.txt', 'b.txt']);
  assert.is(first.response.headers.get('X-Total-Count'), '3');
  assert.match(first.response.headers.get('Link') ?? '', /page=2&limit=2>; rel="next"/);
  const second = await list(w, issue.number, w.owner.auth, { page: 2, limit: 2 });
  assert.equal(second.data!.map((a) => a.name), ['c.txt']);
});

test('200: anonymous callers and readers on a public repository; readers of a private one; an empty list', async () => {
  const issue = await newIssue(app, w, w.owner);
  await uploadToIssue(app, w, issue.number, {}, w.owner);
  for (const [label, auth] of [['anonymous', undefined], ['outsider', w.outsider.auth], ['reader', w.reader.auth]] as const) {
    const r = await list(w, issue.number, auth);
    assert.is(r.response.status, 200, label);
    assert.is(r.data!.length, 1, label);
  }
  const privIssue = await newIssue(app, priv, priv.owner);
  await uploadToIssue(app, priv, privIssue.number, {}, priv.owner);
  assert.is((await list(priv, privIssue.number, priv.reader.auth)).data!.length, 1);
  const bare = await newIssue(app, w, w.owner);
  const empty = await list(w, bare.number, w.owner.auth);
  assert.equal(empty.data, []);
  assert.is(empty.response.headers.get('X-Total-Count'), '0');
});

test('401: wrong credentials', async () => {
  const issue = await newIssue(app, w, w.owner);
  const r = await list(w, issue.number, 'token 0123456789012345678901234567890123456789');
  assert.is(r.response.status, 401);
  assertSpec('issueListIssueAttachments', r);
});

test('404: missing issue, private repository for outsiders and anonymous callers, attachments disabled', async () => {
  const missing = await list(w, 4242, w.owner.auth);
  assert.is(missing.response.status, 404);
  assertSpec('issueListIssueAttachments', missing);
  const privIssue = await newIssue(app, priv, priv.owner);
  assert.is((await list(priv, privIssue.number, priv.outsider.auth)).response.status, 404);
  assert.is((await list(priv, privIssue.number)).response.status, 404);
  const issue = await newIssue(app, w, w.owner);
  app.config.attachment.enabled = false;
  try {
    assert.is((await list(w, issue.number, w.owner.auth)).response.status, 404);
  } finally {
    app.config.attachment.enabled = true;
  }
});

test('422: a page or limit that is not a number', async () => {
  const issue = await newIssue(app, w, w.owner);
  const r = await fetch(`${app.url}/api/v1/repos/${w.path.owner}/${w.path.repo}/issues/${issue.number}/assets?limit=many`, {
    headers: { Authorization: w.owner.auth },
  });
  assert.is(r.status, 422);
});

test.run();
