// GET /repos/{owner}/{repo}/media/{filepath}: the LFS object for a pointer the repository holds the object
// of (a fork: its parent's too), the blob as it is otherwise; ref and the legacy {ref}/{path} form; who may
// read; 404s as raw's. The pointers are committed straight into the repository and the objects uploaded
// through the LFS API (tests/integration/lfsAnswers.test.ts does the same with Debian's git-lfs).
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, fetchRaw, getVerbatim, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { fork } from '../../helpers/forks.js';
import { object, pointerOf, uploadObject } from '../../helpers/lfs.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertRanges, get } from '../../helpers/ranges.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
const logo = object(randomBytes(300_000));
const logoDev = object(randomBytes(5000));
const secret = object(randomBytes(2000));
const unheld = object(randomBytes(1000));
const plain = 'just text\n';

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true }), repoFor(app, r, { auto_init: false })]);
  for (const [target, obj] of [[repo, logo], [repo, logoDev], [priv, secret]] as const) {
    assert.is(await uploadObject(app, target.full_name, r.writer.auth, obj), 200);
  }
  dir = dirOf(app, repo);
  await disk.commit(dir, 'main', {
    'assets/logo.psd': pointerOf(logo),
    'unheld.psd': pointerOf(unheld),
    'wrong-size.psd': pointerOf({ oid: logo.oid, size: logo.size + 1 }),
    'plain.txt': plain,
    'ñ dir/lógo ü.psd': pointerOf(logo),
  });
  await disk.commit(dir, 'dev', { 'assets/logo.psd': pointerOf(logoDev) }, { from: 'main' });
  await disk.commit(dirOf(app, priv), 'main', { 'secret.bin': pointerOf(secret) });
});
test.after(async () => {
  await app.close();
});

const mediaUrl = (target: Repository, path: string) => `/repos/${target.full_name}/media/${path}`;

async function media(target: Repository, path: string, authorization?: string) {
  const res = await fetchRaw(app, mediaUrl(target, path), authorization);
  assert.is(res.status, 200, `${path}: ${res.status} ${res.bytes.subarray(0, 200).toString()}`);
  return res;
}

async function missing(target: Repository, path: string, authorization?: string, label = path) {
  const res = await fetchRaw(app, mediaUrl(target, path), authorization);
  assert.is(res.status, 404, label);
  assert.is(res.bytes.length, 0, `${label}: empty body`);
  assertSpecAnswer('repoGetRawFileOrLFS', 404, undefined);
}

test('200: a pointer of an object the repository holds answers the object, with its length and the file\'s name', async () => {
  const res = await media(repo, 'assets/logo.psd', r.reader.auth);
  assert.ok(res.bytes.equals(logo.content), 'the object, not the pointer');
  assert.is(res.headers.get('content-type'), 'application/octet-stream');
  assert.is(res.headers.get('content-length'), String(logo.size));
  assert.is(res.headers.get('content-disposition'), "inline; filename*=UTF-8''logo.psd");
  const unicode = await media(repo, 'ñ dir/lógo ü.psd'.split('/').map(encodeURIComponent).join('/'));
  assert.ok(unicode.bytes.equals(logo.content), 'a Unicode path');
  assert.is(unicode.headers.get('content-disposition'), `inline; filename*=UTF-8''${encodeURIComponent('lógo ü.psd')}`);
  // raw answers the pointer itself, as Gitea's.
  const raw = await fetchRaw(app, `/repos/${repo.full_name}/raw/assets/logo.psd`);
  assert.is(raw.bytes.toString(), pointerOf(logo));
});

test('200: a pointer of an object the repository does not hold, or of another size, and any other file are served as they are', async () => {
  for (const [path, body] of <Array<[string, string]>>[['unheld.psd', pointerOf(unheld)], ['wrong-size.psd', pointerOf({ oid: logo.oid, size: logo.size + 1 })], ['plain.txt', plain]]) {
    const res = await media(repo, path);
    assert.is(res.bytes.toString(), body, path);
    assert.is(res.headers.get('content-length'), String(Buffer.byteLength(body)), path);
    assert.is(res.headers.get('content-type'), 'application/octet-stream', path);
  }
  const readme = await media(repo, 'README.md');
  assert.ok(readme.bytes.equals(await disk.file(dir, 'main', 'README.md')));
});

test('200: ref as a query parameter and the legacy {ref}/{filepath} form', async () => {
  assert.ok((await media(repo, 'assets/logo.psd?ref=dev')).bytes.equals(logoDev.content), 'ref=dev');
  assert.ok((await media(repo, 'assets/logo.psd?ref=main')).bytes.equals(logo.content), 'ref=main');
  assert.ok((await media(repo, 'dev/assets/logo.psd')).bytes.equals(logoDev.content), 'dev/…');
  const tip = (await disk.tip(dir, 'dev'))!;
  assert.ok((await media(repo, `${tip}/assets/logo.psd`)).bytes.equals(logoDev.content), 'commit id/…');
  assert.ok((await media(repo, `assets/logo.psd?ref=${tip}`)).bytes.equals(logoDev.content), 'ref=commit id');
});

test('200: anyone who can read the code; a private repository for its collaborators; a fork reads its parent\'s objects', async () => {
  const callers: Array<[string | undefined, string]> = [
    [undefined, 'anonymous'], [r.outsider.auth, 'outsider'], [r.reader.auth, 'reader'], [r.writer.auth, 'writer'],
    [r.owner.auth, 'owner'], [r.admin.auth, 'site admin'], [await app.token(r.outsider, ['read:repository']), 'read token'],
  ];
  for (const [auth, label] of callers) assert.ok((await media(repo, 'assets/logo.psd', auth)).bytes.equals(logo.content), label);
  for (const who of [r.reader, r.writer, r.owner, r.admin]) assert.ok((await media(priv, 'secret.bin', who.auth)).bytes.equals(secret.content), who.username);

  const forked = await fork(app, r.outsider, pathOf(repo));
  const res = await media(forked as Repository, 'assets/logo.psd', r.outsider.auth);
  assert.ok(res.bytes.equals(logo.content), 'the fork serves the object its parent holds');
});

test('404 (empty): a directory, a missing path, `..`, an unknown ref, an empty repository; a private repository for outsiders', async () => {
  for (const path of ['assets', 'assets/', 'nope.psd', 'assets/logo.psd/x', 'assets/logo.psd?ref=nope', `assets/logo.psd?ref=${'f'.repeat(40)}`,
    'main', '..%2FREADME.md']) {
    await missing(repo, path, r.owner.auth);
  }
  const verbatim = await getVerbatim(app, mediaUrl(repo, 'assets/../assets/logo.psd'));
  assert.is(verbatim.status, 404, '`..` sent as is');
  await missing(empty, 'README.md', r.owner.auth, 'empty repository');
  await missing(priv, 'secret.bin', undefined, 'anonymous on a private repository');
  await missing(priv, 'secret.bin', r.outsider.auth, 'outsider on a private repository');
  await missing({ full_name: `${r.owner.username}/nope` } as Repository, 'README.md', r.owner.auth, 'unknown repository');
});

test('206/304/400/416: byte ranges of an LFS object (read from the store) and of a plain file, with Gitea\'s ETags (the oid; the blob id)', async () => {
  const base = `${app.url}/api/v1${mediaUrl(repo, '')}`;
  await assertRanges(`${base}assets/logo.psd`, logo.content, `"${logo.oid}"`);
  await assertRanges(`${base}assets/logo.psd?ref=dev`, logoDev.content, `"${logoDev.oid}"`);
  const readme = await disk.file(dir, 'main', 'README.md');
  await assertRanges(`${base}README.md`, readme, `"${(await disk.run(dir, ['rev-parse', 'main:README.md'])).trim()}"`);
  // A pointer of an object the repository does not hold: the pointer's bytes, with the blob's id.
  const unheldBlob = `"${(await disk.run(dir, ['rev-parse', 'main:unheld.psd'])).trim()}"`;
  const part = await get(`${base}unheld.psd`, { Range: 'bytes=0-6' });
  assert.is(part.status, 206);
  assert.is(part.bytes.toString(), 'version');
  assert.is(part.headers.get('etag'), unheldBlob);
  // A large range in the middle of the object.
  const mid = await get(`${base}assets/logo.psd`, { Range: 'bytes=100000-199999' });
  assert.is(mid.status, 206);
  assert.ok(mid.bytes.equals(logo.content.subarray(100000, 200000)));
  assertSpecAnswer('repoGetRawFileOrLFS', 206, undefined);
  const bad = await get(`${base}assets/logo.psd`, { Range: `bytes=${logo.size}-` });
  assertSpecAnswer('repoGetRawFileOrLFS', 416, JSON.parse(bad.bytes.toString()));
  assertSpecAnswer('repoGetRawFileOrLFS', 304, undefined);
  // Private: a range is 404 to an outsider, served to a reader.
  const secretUrl = `${app.url}/api/v1${mediaUrl(priv, 'secret.bin')}`;
  assert.is((await get(secretUrl, { Range: 'bytes=0-9', Authorization: r.outsider.auth })).status, 404);
  const mine = await get(secretUrl, { Range: 'bytes=0-9', Authorization: r.reader.auth });
  assert.is(mine.status, 206);
  assert.ok(mine.bytes.equals(secret.content.subarray(0, 10)));
});

test('401: a wrong token; 403: a token without the repository scope; 422: a NUL in the path or ref', async () => {
  const bad = await fetchRaw(app, mediaUrl(repo, 'assets/logo.psd'), `token ${'0'.repeat(40)}`);
  assert.is(bad.status, 401);
  assertSpecAnswer('repoGetRawFileOrLFS', 401, JSON.parse(bad.bytes.toString()));
  const scoped = await fetchRaw(app, mediaUrl(repo, 'assets/logo.psd'), await wrongScope(app, r.owner, false));
  assert.is(scoped.status, 403);
  assert.equal(JSON.parse(scoped.bytes.toString()), { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  for (const path of ['logo%00.psd', 'assets/logo.psd?ref=ma%00in']) {
    const res = await fetchRaw(app, mediaUrl(repo, path));
    assert.is(res.status, 422, path);
    assertSpecAnswer('repoGetRawFileOrLFS', 422, JSON.parse(res.bytes.toString()));
  }
});

test.run();
