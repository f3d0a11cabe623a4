// GET /attachments/{uuid}: the browser_download_url of an attachment, outside /api/v1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { attachmentWorld, newComment, newIssue, uploadToComment, uploadToIssue, type Attachment, type AttachmentWorld } from '../helpers/attachments.js';

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

const download = (a: Pick<Attachment, 'browser_download_url'>, auth?: string, method = 'GET') =>
  fetch(a.browser_download_url, { method, headers: auth ? { Authorization: auth } : {} });

async function countOf(world: AttachmentWorld, index: number, id: number): Promise<number> {
  const r = await app.client(world.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/assets', { params: { path: { ...world.path, index } } });
  return r.data!.find((a) => a.id === id)!.download_count;
}

test('200: the bytes, as a download named after the attachment; each download counts', async () => {
  const issue = await newIssue(app, w, w.owner);
  const content = 'line one\nline two\n';
  const a = (await uploadToIssue(app, w, issue.number, { filename: 'notes.txt', content }, w.owner)).data!;
  assert.is(a.browser_download_url, `${app.url}/attachments/${a.uuid}`);
  for (let n = 1; n <= 3; n++) {
    const r = await download(a);
    assert.is(r.status, 200);
    assert.is(await r.text(), content);
    assert.is(r.headers.get('Content-Type'), 'application/octet-stream');
    assert.is(r.headers.get('Content-Length'), String(Buffer.byteLength(content)));
    assert.is(r.headers.get('Content-Disposition'), `attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    assert.is(r.headers.get('X-Content-Type-Options'), 'nosniff');
    assert.is(await countOf(w, issue.number, a.id), n, `count after ${n} downloads`);
  }
  const head = await download(a, undefined, 'HEAD');
  assert.is(head.status, 200);
  assert.is(await countOf(w, issue.number, a.id), 3, 'HEAD does not count');
});

test('200: a UTF-8 name is sent exactly in filename* with an ASCII fallback; binary bytes survive', async () => {
  const issue = await newIssue(app, w, w.owner);
  const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
  const a = (await uploadToIssue(app, w, issue.number, { filename: 'ünï "cødé" 100%.zip', content: bytes }, w.owner)).data!;
  assert.is(a.name, 'ünï %22cødé%22 100%.zip', 'the client percent-encodes quotes in the part header (as browsers do)');
  const r = await download(a);
  assert.is(r.status, 200);
  assert.equal(new Uint8Array(await r.arrayBuffer()), bytes);
  const disposition = r.headers.get('Content-Disposition')!;
  assert.is(disposition, `attachment; filename="_n_ _22c_d__22 100_.zip"; filename*=UTF-8''${encodeURIComponent(a.name)}`);
});

test('200: comment attachments, for whoever may read the issue', async () => {
  const issue = await newIssue(app, w, w.owner);
  const c = await newComment(app, w, issue.number, w.owner);
  const a = (await uploadToComment(app, w, c.id, { filename: 'c.txt', content: 'on a comment' }, w.owner)).data!;
  const r = await download(a, w.outsider.auth);
  assert.is(r.status, 200);
  assert.is(await r.text(), 'on a comment');
});

test('private repository: 404 for anonymous callers and outsiders, 200 for readers and the site admin', async () => {
  const issue = await newIssue(app, priv, priv.owner);
  const a = (await uploadToIssue(app, priv, issue.number, { content: 'secret' }, priv.owner)).data!;
  for (const [label, auth] of [['anonymous', undefined], ['outsider', priv.outsider.auth]] as const) {
    const r = await download(a, auth);
    assert.is(r.status, 404, label);
    assert.is(await r.text(), '', `${label}: empty body`);
  }
  for (const [label, auth] of [['reader', priv.reader.auth], ['site admin', priv.admin.auth], ['Basic', priv.reader.basic]] as const) {
    const r = await download(a, auth);
    assert.is(r.status, 200, label);
    assert.is(await r.text(), 'secret');
  }
  assert.is(await countOf(priv, issue.number, a.id), 3, 'refused downloads do not count');
});

test('401 for wrong credentials; 403 for a token without the issue scope', async () => {
  const issue = await newIssue(app, w, w.owner);
  const a = (await uploadToIssue(app, w, issue.number, {}, w.owner)).data!;
  assert.is((await download(a, 'token 0123456789012345678901234567890123456789')).status, 401);
  const repoOnly = await app.token(w.owner, ['read:repository']);
  assert.is((await download(a, repoOnly)).status, 403);
  const issueScope = await app.token(w.owner, ['read:issue']);
  assert.is((await download(a, issueScope)).status, 200);
});

test('404: unknown and malformed uuids; a file gone from the disk', async () => {
  const unknown = await fetch(`${app.url}/attachments/00000000-0000-4000-8000-000000000000`);
  assert.is(unknown.status, 404);
  assert.is((await fetch(`${app.url}/attachments/..%2F..%2Fetc%2Fpasswd`)).status, 404);
  assert.is((await fetch(`${app.url}/attachments/not-a-uuid`)).status, 404);
  const issue = await newIssue(app, w, w.owner);
  const a = (await uploadToIssue(app, w, issue.number, {}, w.owner)).data!;
  await app.services.attachments.storage.remove(a.uuid);
  assert.is((await download(a)).status, 404);
});

test.run();
