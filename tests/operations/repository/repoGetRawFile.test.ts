import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, fetchRaw, getVerbatim, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertRanges, get } from '../../helpers/ranges.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
let first: string;
const bin = Buffer.concat([Buffer.from([0, 0xff, 0xfe, 0x0d, 0x0a]), randomBytes(4000)]);
const guide = '# Guide\r\nwith CRLF and ñ\n';

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  first = (await disk.tip(dir, 'main'))!;
  await disk.commit(dir, 'main', {
    'docs/guide.md': guide,
    'docs/deep/data.bin': bin,
    'ñ dir/file ü.txt': 'unicode\n',
    'link': { symlink: 'docs/guide.md' },
    'sub': { gitlink: first },
  });
  await disk.commit(dir, 'dev', { 'docs/guide.md': 'dev guide\n' }, { from: 'main' });
  await disk.commit(dir, 'feature/x', { 'file.txt': 'on feature/x\n' }, { from: first });
  await disk.run(dir, ['tag', '-a', '-m', 'v0', 'v0', first]);
});
test.after(async () => {
  await app.close();
});

const rawUrl = (target: Repository, path: string) => `/repos/${target.full_name}/raw/${path}`;
const enc = (path: string) => path.split('/').map(encodeURIComponent).join('/');

async function bytes(target: Repository, path: string, authorization?: string) {
  const res = await fetchRaw(app, rawUrl(target, path), authorization);
  assert.is(res.status, 200, `${path}: ${res.status} ${res.bytes.toString()}`);
  return res;
}

async function missing(target: Repository, path: string, authorization?: string, label = path) {
  const res = await fetchRaw(app, rawUrl(target, path), authorization);
  assert.is(res.status, 404, label);
  assert.is(res.bytes.length, 0, `${label}: empty body`);
  assertSpecAnswer('repoGetRawFile', 404, undefined);
}

test('200: the blob\'s bytes, unchanged, as application/octet-stream — text, binary, nested and Unicode paths', async () => {
  const cases: Array<[string, Buffer]> = [
    ['README.md', await disk.file(dir, 'main', 'README.md')],
    ['docs/guide.md', Buffer.from(guide)],
    ['docs/deep/data.bin', bin],
    [enc('ñ dir/file ü.txt'), Buffer.from('unicode\n')],
  ];
  for (const [path, expected] of cases) {
    const res = await bytes(repo, path, r.reader.auth);
    assert.ok(res.bytes.equals(expected), `${path}: the same bytes`);
    assert.is(res.headers.get('content-type'), 'application/octet-stream', path);
    assert.is(res.headers.get('content-length'), String(expected.length), path);
    assert.match(res.headers.get('content-disposition') ?? '', /filename/);
  }
  const escaped = await bytes(repo, 'docs%2Fdeep%2Fdata.bin');
  assert.ok(escaped.bytes.equals(bin), 'escaped slashes name the same file');
});

test('200: a symbolic link answers its target path', async () => {
  const res = await bytes(repo, 'link');
  assert.is(res.bytes.toString(), 'docs/guide.md');
});

test('200: ref as a query parameter — branch, annotated tag, commit id', async () => {
  const cases: Array<[string, string, string]> = [
    ['docs/guide.md', 'dev', 'dev guide\n'],
    ['docs/guide.md', 'main', guide],
    ['README.md', 'v0', (await disk.file(dir, first, 'README.md')).toString()],
    ['file.txt', 'feature/x', 'on feature/x\n'],
    ['docs/guide.md', (await disk.tip(dir, 'dev'))!, 'dev guide\n'],
  ];
  for (const [path, ref, text] of cases) {
    const res = await bytes(repo, `${path}?ref=${encodeURIComponent(ref)}`);
    assert.is(res.bytes.toString(), text, `${path} at ${ref}`);
  }
});

test('200: without ref, the legacy {ref}/{filepath} form — a branch (also with a slash), a tag, a full commit id', async () => {
  const devTip = (await disk.tip(dir, 'dev'))!;
  const cases: Array<[string, string]> = [
    ['main/docs/guide.md', guide],
    ['dev/docs/guide.md', 'dev guide\n'],
    ['feature/x/file.txt', 'on feature/x\n'],
    [`v0/README.md`, (await disk.file(dir, first, 'README.md')).toString()],
    [`${devTip}/docs/guide.md`, 'dev guide\n'],
    ['docs/guide.md', guide],
  ];
  for (const [path, text] of cases) assert.is((await bytes(repo, path)).bytes.toString(), text, path);
  await missing(repo, 'main/README.md?ref=main', undefined, 'with ref, the path is taken as it is');
  await missing(repo, `${devTip.slice(0, 12)}/docs/guide.md`, undefined, 'a short commit id is no ref');
});

test('200: anyone who can read the code; a private repository for its collaborators', async () => {
  const callers: Array<[string | undefined, string]> = [
    [undefined, 'anonymous'], [r.outsider.auth, 'outsider'], [r.reader.auth, 'reader'], [r.writer.auth, 'writer'],
    [r.owner.auth, 'owner'], [r.admin.auth, 'site admin'], [await app.token(r.outsider, ['read:repository']), 'read token'],
  ];
  for (const [auth, label] of callers) assert.ok((await bytes(repo, 'docs/guide.md', auth)).bytes.equals(Buffer.from(guide)), label);
  const expected = await disk.file(dirOf(app, priv), 'main', 'README.md');
  for (const who of [r.reader, r.writer, r.owner, r.admin]) assert.ok((await bytes(priv, 'README.md', who.auth)).bytes.equals(expected), who.username);
});

test('404 (empty): a directory, a submodule, a missing path, `..`, an unknown ref, an empty repository', async () => {
  for (const path of ['docs', 'docs/', 'docs/deep', 'sub', 'nope.txt', 'docs/guide.md/x', 'README.md?ref=nope', `README.md?ref=${'f'.repeat(40)}`,
    'docs/guide.md?ref=v0', 'main', 'main/docs', 'README.MD', '..%2FREADME.md', 'docs%2F..%2FREADME.md']) {
    await missing(repo, path, r.owner.auth);
  }
  for (const path of ['docs/../README.md', 'main/../README.md', 'docs/./guide.md']) {
    const res = await getVerbatim(app, rawUrl(repo, path));
    assert.is(res.status, 404, `${path} sent as is`);
    assert.is(res.body, '');
  }
  await missing(empty, 'README.md', r.owner.auth, 'empty repository');
  await missing(empty, 'main/README.md', r.owner.auth, 'empty repository, legacy form');
});

test('404 (empty): a private repository for anonymous callers and outsiders; an unknown repository', async () => {
  await missing(priv, 'README.md', undefined, 'anonymous');
  await missing(priv, 'README.md', r.outsider.auth, 'outsider');
  await missing({ full_name: `${r.owner.username}/nope` } as Repository, 'README.md', r.owner.auth, 'unknown repository');
});

test('206/304/400/416: byte ranges, If-Range and If-None-Match with the blob id as ETag, as Gitea serves them', async () => {
  const url = `${app.url}/api/v1${rawUrl(repo, 'docs/deep/data.bin')}`;
  const etag = `"${(await disk.run(dir, ['rev-parse', 'main:docs/deep/data.bin'])).trim()}"`;
  await assertRanges(url, bin, etag, { Authorization: r.reader.auth });
  // Another version of the file has another ETag.
  const guideTag = `"${(await disk.run(dir, ['rev-parse', 'dev:docs/guide.md'])).trim()}"`;
  assert.is((await get(`${app.url}/api/v1${rawUrl(repo, 'docs/guide.md')}?ref=dev`)).headers.get('etag'), guideTag);
  const partial = await get(url, { Range: 'bytes=0-3' });
  assertSpecAnswer('repoGetRawFile', 206, undefined);
  assert.is(partial.status, 206);
  const bad = await get(url, { Range: `bytes=${bin.length}-` });
  assert.is(bad.status, 416);
  assertSpecAnswer('repoGetRawFile', 416, JSON.parse(bad.bytes.toString()));
  const wrongEnd = await get(url, { Range: 'bytes=5-1' });
  assertSpecAnswer('repoGetRawFile', 400, JSON.parse(wrongEnd.bytes.toString()));
  // A range of a private repository's file is 404 to outsiders, as the file is.
  const privUrl = `${app.url}/api/v1${rawUrl(priv, 'README.md')}`;
  assert.is((await get(privUrl, { Range: 'bytes=0-1', Authorization: r.outsider.auth })).status, 404);
  assert.is((await get(privUrl, { Range: 'bytes=0-1', Authorization: r.reader.auth })).status, 206);
});

test('401: a wrong token; 403: a token without the repository scope; 422: a NUL in the path or ref', async () => {
  const bad = await fetchRaw(app, rawUrl(repo, 'README.md'), `token ${'0'.repeat(40)}`);
  assert.is(bad.status, 401);
  assertSpecAnswer('repoGetRawFile', 401, JSON.parse(bad.bytes.toString()));
  const scoped = await fetchRaw(app, rawUrl(repo, 'README.md'), await wrongScope(app, r.owner, false));
  assert.is(scoped.status, 403);
  assert.equal(JSON.parse(scoped.bytes.toString()), { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  for (const path of ['READ%00ME.md', 'README.md?ref=ma%00in']) {
    const res = await fetchRaw(app, rawUrl(repo, path));
    assert.is(res.status, 422, path);
    assertSpecAnswer('repoGetRawFile', 422, JSON.parse(res.bytes.toString()));
  }
});

test.run();
