import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertNothingLeft, attachmentDir, attachmentRowCount, attachmentWorld, filesUnder, newIssue, rawUpload, storedPath, tmpDir,
  until, uploadToIssue, writeBytes, type AttachmentWorld,
} from '../../helpers/attachments.js';
import { messageOf, swaggerOf } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

const MiB = 1024 * 1024;
let app: TestApp;
let w: AttachmentWorld;
let priv: AttachmentWorld;

test.before(async () => {
  app = await startApp({ ATTACHMENT_MAX_SIZE: '1' });
  w = await attachmentWorld(app);
  priv = await attachmentWorld(app, { private: true, reuse: w });
});
test.after(async () => {
  await app.close();
});

const assetsPath = (world: AttachmentWorld, index: number) => `/repos/${world.path.owner}/${world.path.repo}/issues/${index}/assets`;

test('201: poster (no write access), writer, repository admin, owner and site admin; the file is stored under its uuid', async () => {
  const byOutsider = await newIssue(app, w, w.outsider);
  const byReader = await newIssue(app, w, w.reader);
  const cases = [
    ['poster without write access', byOutsider, w.outsider],
    ['poster with read access', byReader, w.reader],
    ['writer', byOutsider, w.writer],
    ['repository admin', byOutsider, w.repoAdmin],
    ['owner', byOutsider, w.owner],
    ['site admin', byOutsider, w.admin],
  ] as const;
  for (const [label, issue, as] of cases) {
    const content = `uploaded by ${label}\n`;
    const r = await uploadToIssue(app, w, issue.number, { filename: 'notes.txt', content }, as);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueCreateIssueAttachment', r);
    const a = r.data!;
    assert.is(a.name, 'notes.txt');
    assert.is(a.size, Buffer.byteLength(content));
    assert.is(a.download_count, 0);
    assert.match(a.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.is(a.browser_download_url, `${app.config.rootUrl}attachments/${a.uuid}`);
    assert.is(readFileSync(storedPath(app, a.uuid), 'utf8'), content, `${label}: the file is at attachments/u/u/uuid`);
  }
  assert.equal(filesUnder(tmpDir(app)), [], 'nothing stays in tmp/');
  // The issue shows its assets.
  const got = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...w.path, index: byOutsider.number } } });
  assert.is(got.data!.assets.length, 5);
});

test('201: pull-request-free binary content and an empty file', async () => {
  const issue = await newIssue(app, w, w.owner);
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00]);
  const r = await uploadToIssue(app, w, issue.number, { filename: 'pixel.png', content: png }, w.owner);
  assert.is(r.response.status, 201);
  assert.equal(new Uint8Array(readFileSync(storedPath(app, r.data!.uuid))), png, 'bytes kept exactly');
  const empty = await uploadToIssue(app, w, issue.number, { filename: 'empty.txt', content: '' }, w.owner);
  assert.is(empty.response.status, 201);
  assert.is(empty.data!.size, 0);
});

test('?name= overrides the part\'s file name; an empty one does not', async () => {
  const issue = await newIssue(app, w, w.owner);
  const named = await uploadToIssue(app, w, issue.number, { filename: 'part.txt' }, w.owner, 'chosen.log');
  assert.is(named.response.status, 201);
  assert.is(named.data!.name, 'chosen.log');
  const empty = await uploadToIssue(app, w, issue.number, { filename: 'part.txt' }, w.owner, '');
  assert.is(empty.response.status, 201);
  assert.is(empty.data!.name, 'part.txt');
});

test('names are sanitised: the last path segment, no control characters, trimmed', async () => {
  const issue = await newIssue(app, w, w.owner);
  const cases: Array<[string, string, string | undefined]> = [
    ['path in the part name', '../../etc/passwd.txt', undefined],
    ['backslashes', 'C:\\Users\\me\\report.txt', undefined],
    ['control characters and spaces in ?name=', 'x.txt', '  \u0001re\u0007port\u007f.txt\t '],
    ['path in ?name=', 'x.txt', '/tmp/../report.txt'],
  ];
  const expected = ['passwd.txt', 'report.txt', 'report.txt', 'report.txt'];
  for (const [i, [label, filename, name]] of cases.entries()) {
    const r = await uploadToIssue(app, w, issue.number, { filename }, w.owner, name);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assert.is(r.data!.name, expected[i], label);
  }
  const unicode = await uploadToIssue(app, w, issue.number, { filename: 'ünï cødé.txt' }, w.owner);
  assert.is(unicode.data!.name, 'ünï cødé.txt', 'UTF-8 names survive');
});

test('422: a name with nothing left after sanitising', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  for (const name of ['  ', 'dir/', '..', '\u0001\u0002']) {
    const r = await uploadToIssue(app, w, issue.number, { filename: 'ok.txt' }, w.owner, name);
    assert.is(r.response.status, 422, JSON.stringify(name));
    assertSpec('issueCreateIssueAttachment', r);
  }
  await assertNothingLeft(app, rows, files, 'bad names');
});

test('422: a type not in the allow-list (file.bad), nothing stored; MIME patterns match sniffed content', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const r = await uploadToIssue(app, w, issue.number, { filename: 'file.bad', content: 'text' }, w.owner);
  assert.is(r.response.status, 422);
  assertSpec('issueCreateIssueAttachment', r);
  assert.match(messageOf(r.error), 'file.bad');
  assert.is((r.error as { url: string }).url, swaggerOf(app));
  const renamed = await uploadToIssue(app, w, issue.number, { filename: 'ok.txt' }, w.owner, 'sneaky.exe');
  assert.is(renamed.response.status, 422, '?name= is checked too');
  await assertNothingLeft(app, rows, files, 'disallowed type');

  const saved = app.config.attachment.allowedTypes;
  app.config.attachment.allowedTypes = 'image/*, application/pdf';
  try {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const asBin = await uploadToIssue(app, w, issue.number, { filename: 'picture.bin', content: png }, w.owner);
    assert.is(asBin.response.status, 201, 'a PNG passes image/* whatever its name');
    const pdf = await uploadToIssue(app, w, issue.number, { filename: 'doc', content: '%PDF-1.7\n' }, w.owner);
    assert.is(pdf.response.status, 201, 'a PDF passes application/pdf');
    const text = await uploadToIssue(app, w, issue.number, { filename: 'picture.png', content: 'not a picture' }, w.owner);
    assert.is(text.response.status, 422, 'text named .png does not pass image/*');
    app.config.attachment.allowedTypes = '*/*';
    assert.is((await uploadToIssue(app, w, issue.number, { filename: 'file.bad' }, w.owner)).response.status, 201, '*/* allows all');
    app.config.attachment.allowedTypes = '';
    assert.is((await uploadToIssue(app, w, issue.number, { filename: 'file.bad' }, w.owner)).response.status, 201, 'empty allows all');
  } finally {
    app.config.attachment.allowedTypes = saved;
  }
});

test('422: no attachment part (another part, another field name, or not multipart at all)', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const none = await uploadToIssue(app, w, issue.number, null, w.owner);
  assert.is(none.response.status, 422);
  assertSpec('issueCreateIssueAttachment', none);
  assert.match(messageOf(none.error), 'attachment');
  const other = await uploadToIssue(app, w, issue.number, { field: 'file', filename: 'a.txt' }, w.owner);
  assert.is(other.response.status, 422);
  const json = await fetch(`${app.url}/api/v1${assetsPath(w, issue.number)}`, {
    method: 'POST',
    headers: { Authorization: w.owner.auth, 'Content-Type': 'application/json' },
    body: '{"attachment":"x"}',
  });
  assert.is(json.status, 422);
  const broken = await fetch(`${app.url}/api/v1${assetsPath(w, issue.number)}`, {
    method: 'POST',
    headers: { Authorization: w.owner.auth, 'Content-Type': 'multipart/form-data; boundary=xyz' },
    body: '--xyz\r\nContent-Disposition: form-data; name="attachment"; filename="a.txt"\r\n\r\nno closing boundary',
  });
  assert.is(broken.status, 422, 'a truncated body is unreadable, not a 500');
  assertSpecAnswer('issueCreateIssueAttachment', broken.status, await broken.json());
  await assertNothingLeft(app, rows, files, 'missing part');
});

test('422: a file name with NUL (RFC 5987 filename*) is refused; nothing is kept (#32)', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const res = await fetch(`${app.url}/api/v1${assetsPath(w, issue.number)}`, {
    method: 'POST',
    headers: { Authorization: w.owner.auth, 'Content-Type': 'multipart/form-data; boundary=xyz' },
    body: `--xyz\r\nContent-Disposition: form-data; name="attachment"; filename*=UTF-8''a%00b.txt\r\n\r\ncontent\r\n--xyz--\r\n`,
  });
  const body = await res.json();
  assert.is(res.status, 422, JSON.stringify(body));
  assertSpecAnswer('issueCreateIssueAttachment', res.status, body);
  assert.match(body.message, /\[attachment\.filename\]: must not contain NUL/);
  await assertNothingLeft(app, rows, files, 'NUL file name');
});

test('401: anonymous and wrong credentials', async () => {
  const issue = await newIssue(app, w, w.owner);
  const anon = await uploadToIssue(app, w, issue.number, {});
  assert.is(anon.response.status, 401);
  assertSpec('issueCreateIssueAttachment', anon);
  const wrong = await app.client('token 0123456789012345678901234567890123456789').POST('/repos/{owner}/{repo}/issues/{index}/assets', {
    params: { path: { ...w.path, index: issue.number } },
    body: new FormData() as unknown as { attachment: string },
  });
  assert.is(wrong.response.status, 401);
});

test('403: a reader or outsider on somebody else\'s issue; a token without the issue scope', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  for (const [label, as] of [['reader', w.reader], ['outsider', w.outsider]] as const) {
    const r = await uploadToIssue(app, w, issue.number, {}, as);
    assert.is(r.response.status, 403, label);
    assertSpec('issueCreateIssueAttachment', r);
    assert.is(messageOf(r.error), 'user should have permission to write issue');
  }
  const readOnly = await app.token(w.owner, ['write:repository']);
  const scoped = await uploadToIssue(app, w, issue.number, {}, { ...w.owner, auth: readOnly });
  assert.is(scoped.response.status, 403, 'token scope');
  await assertNothingLeft(app, rows, files, '403');
});

test('404: missing issue, private repository for outsiders, attachments disabled', async () => {
  const missing = await uploadToIssue(app, w, 9999, {}, w.owner);
  assert.is(missing.response.status, 404);
  assertSpec('issueCreateIssueAttachment', missing);
  const privIssue = await newIssue(app, priv, priv.owner);
  const hidden = await uploadToIssue(app, priv, privIssue.number, {}, priv.outsider);
  assert.is(hidden.response.status, 404);
  assert.is(await hidden.response.text(), '', '404 has an empty body');
  assert.is((await uploadToIssue(app, priv, privIssue.number, {}, priv.reader)).response.status, 403, 'a reader of the private repository sees it');
  const issue = await newIssue(app, w, w.owner);
  app.config.attachment.enabled = false;
  try {
    const off = await uploadToIssue(app, w, issue.number, {}, w.owner);
    assert.is(off.response.status, 404);
  } finally {
    app.config.attachment.enabled = true;
  }
  assert.equal(filesUnder(tmpDir(app)), []);
});

test('423: archived repository', async () => {
  const world = await attachmentWorld(app, { reuse: w });
  const issue = await newIssue(app, world, world.owner);
  const archived = await app.client(world.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: world.path }, body: { archived: true } });
  assert.is(archived.response.status, 200);
  const rows = await attachmentRowCount(app);
  const r = await uploadToIssue(app, world, issue.number, {}, world.owner);
  assert.is(r.response.status, 423);
  assertSpec('issueCreateIssueAttachment', r);
  assert.is(messageOf(r.error), 'repo is archived');
  assert.is(await attachmentRowCount(app), rows);
});

test('413: a declared size over the maximum is refused before the body is read; nothing is written', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const r = await uploadToIssue(app, w, issue.number, { filename: 'big.txt', content: new Uint8Array(1.5 * MiB).fill(97) }, w.owner);
  assert.is(r.response.status, 413);
  assertSpec('issueCreateIssueAttachment', r);
  assert.match(messageOf(r.error), '1 MiB');
  await assertNothingLeft(app, rows, files, 'declared oversize');
  // Exactly the maximum is fine.
  const max = await uploadToIssue(app, w, issue.number, { filename: 'max.txt', content: new Uint8Array(MiB).fill(97) }, w.owner);
  assert.is(max.response.status, 201);
  assert.is(max.data!.size, MiB);
});

test('413: a chunked body that crosses the maximum is cut off and its partial file deleted', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const up = rawUpload(app, assetsPath(w, issue.number), { auth: w.owner.auth, chunked: true });
  up.req.write(up.head);
  await writeBytes(up.req, 1.25 * MiB);
  up.req.end(up.tail);
  const answer = await up.response;
  assert.is(answer.status, 413);
  assertSpecAnswer('issueCreateIssueAttachment', answer.status, JSON.parse(answer.text));
  await until(() => filesUnder(tmpDir(app)).length === 0, 'tmp/ to be empty');
  await assertNothingLeft(app, rows, files, 'chunked oversize');
});

test('a client that drops the connection half way leaves no file and no row', async () => {
  const issue = await newIssue(app, w, w.owner);
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const total = 900 * 1024;
  const up = rawUpload(app, assetsPath(w, issue.number), { auth: w.owner.auth, length: total });
  up.response.catch(() => {}); // the request dies with the socket
  up.req.on('error', () => {});
  up.req.write(up.head);
  await writeBytes(up.req, total / 2);
  // The server is writing the part: its temporary file exists.
  await until(() => filesUnder(tmpDir(app)).length === 1, 'the upload to reach tmp/');
  up.req.destroy();
  await until(() => filesUnder(tmpDir(app)).length === 0, 'the server to delete the partial file');
  await assertNothingLeft(app, rows, files, 'dropped upload');
  // The server is fine afterwards.
  assert.is((await uploadToIssue(app, w, issue.number, {}, w.owner)).response.status, 201);
});

test.run();
