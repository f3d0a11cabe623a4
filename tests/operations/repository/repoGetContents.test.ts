import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, fetchRaw, getVerbatim, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Contents = components['schemas']['ContentsResponse'];

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
let api: string;
let html: string;
let oldCommit: string; // guide.md's first version
let tip: string;
const img = Buffer.concat([Buffer.from([0, 1, 2, 255]), randomBytes(1000)]);
const guide = '# Guide\n\nUnicode: ñ ü 漢字\n';

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  html = `${app.config.rootUrl}${repo.full_name}`;
  oldCommit = await disk.commit(dir, 'main', { 'docs/guide.md': 'old guide\n' }, { message: 'first guide\n', date: new Date('2020-01-01T00:00:00Z') });
  await disk.commit(dir, 'main', {
    'docs/guide.md': guide,
    'docs/img.bin': img,
    'docs/x.txt': 'x\n',
    'docs/x/inner.txt': 'inner\n',
    'docs/deep/nested/file.txt': 'nested\n',
  }, { message: 'docs\n', date: new Date('2021-02-03T04:05:06Z') });
  tip = await disk.commit(dir, 'main', {
    'link': { symlink: 'docs/guide.md' },
    'dir with space/ñ file.txt': 'spaced\n',
    '.gitmodules': '[submodule "sub"]\n\tpath = sub\n\turl = https://example.com/lib.git\n',
    'sub': { gitlink: oldCommit },
  }, { message: 'more\n', date: new Date('2022-01-01T00:00:00Z') });
  await disk.commit(dir, 'dev', { 'docs/guide.md': 'dev guide\n' }, { from: 'main' });
  await disk.run(dir, ['tag', 'light', oldCommit]);
  await disk.run(dir, ['tag', '-a', '-m', 'annotated', 'ann', oldCommit]);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, filepath: string, query: { ref?: string } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...pathOf(target), filepath }, query } });

const blobOf = async (rev: string, path: string) => (await disk.rev(dir, `${rev}:${path}`))!;
const enc = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** A directory entry as the contents API lists it (metadata only). */
async function entry(path: string, type: Contents['type'], ref = 'main', rev = tip): Promise<Contents> {
  const sha = await blobOf(rev, path);
  const self = `${api}/contents/${enc(path)}?ref=${encodeURIComponent(ref)}`;
  const git = type === 'dir' ? `${api}/git/trees/${sha}` : type === 'submodule' ? null : `${api}/git/blobs/${sha}`;
  const size = type === 'file' || type === 'symlink' ? Number((await disk.run(dir, ['cat-file', '-s', sha])).trim()) : 0;
  return {
    name: path.split('/').pop()!, path, sha, type, size, encoding: null, content: null, target: null,
    url: self, html_url: type === 'submodule' ? null : `${html}/src/${encodeURIComponent(ref)}/${enc(path)}`, git_url: git,
    download_url: type === 'file' ? `${html}/raw/${encodeURIComponent(ref)}/${enc(path)}` : null,
    submodule_git_url: null,
    _links: { self, git, html: type === 'submodule' ? null : `${html}/src/${encodeURIComponent(ref)}/${enc(path)}` },
  };
}

test('200: a file — base64 content, blob sha, size, links, and the last commit that touched it', async () => {
  const res = await get(repo, 'docs/guide.md', {}, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetContents', res);
  const body = res.data as Contents;
  const sha = await blobOf('main', 'docs/guide.md');
  const last = (await disk.run(dir, ['log', '-1', '--format=%H', 'main', '--', 'docs/guide.md'])).trim();
  const base = await entry('docs/guide.md', 'file');
  assert.equal(body, {
    ...base,
    size: Buffer.byteLength(guide),
    encoding: 'base64',
    content: Buffer.from(guide).toString('base64'),
    last_commit_sha: last,
    last_commit_message: 'docs\n',
    last_author_date: '2021-02-03T04:05:06Z',
    last_committer_date: '2021-02-03T04:05:06Z',
  });
  assert.is(body.sha, sha);
  assert.is(Buffer.from(body.content!, 'base64').toString('utf8'), guide);
  assert.is(body._links.self, `${api}/contents/docs/guide.md?ref=main`);
});

test('200: a binary file, a Unicode path with spaces, a nested path — escaped or with literal slashes', async () => {
  const bin = (await get(repo, 'docs/img.bin')).data as Contents;
  assert.ok(Buffer.from(bin.content!, 'base64').equals(img), 'binary bytes survive');
  assert.is(bin.size, img.length);

  const spaced = await get(repo, 'dir with space/ñ file.txt');
  assert.is(spaced.response.status, 200);
  assert.is((spaced.data as Contents).path, 'dir with space/ñ file.txt');
  assert.is(Buffer.from((spaced.data as Contents).content!, 'base64').toString(), 'spaced\n');

  const typed = await get(repo, 'docs/deep/nested/file.txt');
  assert.is(typed.response.status, 200);
  assertSpec('repoGetContents', typed);
  const literal = await fetchRaw(app, `/repos/${repo.full_name}/contents/docs/deep/nested/file.txt`);
  assert.is(literal.status, 200);
  assert.equal(JSON.parse(literal.bytes.toString()), typed.data);
  assert.is((typed.data as Contents).name, 'file.txt');
  assert.is(Buffer.from((typed.data as Contents).content!, 'base64').toString(), 'nested\n');
});

test('200: a directory is an array of its entries in git tree order, metadata only', async () => {
  const res = await get(repo, 'docs', {}, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetContents', res);
  const list = res.data as Contents[];
  assert.ok(Array.isArray(list));
  assert.equal(list.map((e) => e.name), ['deep', 'guide.md', 'img.bin', 'x.txt', 'x'], 'x.txt sorts before the tree x (x/)');
  const expected = [
    await entry('docs/deep', 'dir'), await entry('docs/guide.md', 'file'), await entry('docs/img.bin', 'file'),
    await entry('docs/x.txt', 'file'), await entry('docs/x', 'dir'),
  ];
  assert.equal(list.map(({ last_commit_sha: _s, last_commit_message: _m, last_author_date: _a, last_committer_date: _c, ...e }) => e), expected);
  const nested = await get(repo, 'docs/deep/');
  assert.equal((nested.data as Contents[]).map((e) => e.path), ['docs/deep/nested'], 'a trailing slash names the same directory');
});

test('200: a symbolic link carries its target; a submodule its repository URL', async () => {
  const link = (await get(repo, 'link')).data as Contents;
  assert.is(link.type, 'symlink');
  assert.is(link.target, 'docs/guide.md');
  assert.is(link.content, null);
  assert.is(link.encoding, null);
  assert.is(link.size, 'docs/guide.md'.length);
  assert.is(link.download_url, null);

  const res = await get(repo, 'sub');
  assert.is(res.response.status, 200);
  assertSpec('repoGetContents', res);
  const sub = res.data as Contents;
  assert.is(sub.type, 'submodule');
  assert.is(sub.sha, oldCommit, 'the gitlink\'s commit');
  assert.is(sub.submodule_git_url, 'https://example.com/lib.git');
  assert.equal([sub.content, sub.encoding, sub.html_url, sub.git_url, sub.download_url, sub._links.git, sub._links.html], [null, null, null, null, null, null, null]);
});

test('200: ref may be a branch, a lightweight or annotated tag, a full or short commit id', async () => {
  const cases: Array<[string, string]> = [
    ['main', guide],
    ['dev', 'dev guide\n'],
    ['light', 'old guide\n'],
    ['ann', 'old guide\n'],
    [oldCommit, 'old guide\n'],
    [oldCommit.slice(0, 10), 'old guide\n'],
    ['', guide],
  ];
  for (const [ref, text] of cases) {
    const res = await get(repo, 'docs/guide.md', { ref });
    assert.is(res.response.status, 200, ref);
    const body = res.data as Contents;
    assert.is(Buffer.from(body.content!, 'base64').toString(), text, ref);
    assert.is(body.url, `${api}/contents/docs/guide.md?ref=${ref || 'main'}`, ref);
  }
  const old = (await get(repo, 'docs', { ref: 'light' })).data as Contents[];
  assert.equal(old.map((e) => e.name), ['guide.md'], 'the directory as it was at the tag');
  assert.is(old[0]!.sha, await blobOf(oldCommit, 'docs/guide.md'));
});

test('200: anyone who can read the code; a private repository for its collaborators', async () => {
  const callers: Array<[string | undefined, string]> = [
    [undefined, 'anonymous'], [r.outsider.auth, 'outsider'], [r.reader.auth, 'reader'], [r.writer.auth, 'writer'],
    [r.owner.auth, 'owner'], [r.admin.auth, 'site admin'], [await app.token(r.outsider, ['read:repository']), 'read token'],
  ];
  for (const [auth, label] of callers) assert.is((await get(repo, 'README.md', {}, auth)).response.status, 200, label);
  for (const who of [r.reader, r.writer, r.owner, r.admin]) {
    const res = await get(priv, 'README.md', {}, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.match(Buffer.from((res.data as Contents).content!, 'base64').toString(), new RegExp(priv.name));
  }
});

test('404 (empty): a missing path, a path through a file, `..` and `.` segments, an unknown ref, an empty repository', async () => {
  const missing: Array<[string, { ref?: string }]> = [
    ['nope.txt', {}], ['docs/nope', {}], ['README.md/x', {}], ['docs/guide.md', { ref: 'nope' }], ['docs/img.bin', { ref: 'light' }],
    ['docs/guide.md', { ref: 'f'.repeat(40) }], ['../README.md', {}], ['docs/../README.md', {}], ['./README.md', {}], ['DOCS/guide.md', {}],
  ];
  for (const [filepath, query] of missing) {
    const res = await get(repo, filepath, query, r.owner.auth);
    assert.is(res.response.status, 404, `${filepath} ${JSON.stringify(query)}`);
    assertSpec('repoGetContents', res);
    assert.is(res.error, undefined);
  }
  for (const path of ['docs/../README.md', 'docs/%2E%2E/README.md', '..%2FREADME.md', 'docs/./guide.md']) {
    const res = await getVerbatim(app, `/repos/${repo.full_name}/contents/${path}`);
    assert.is(res.status, 404, `${path} sent as is`);
    assert.is(res.body, '');
  }
  assert.is((await get(empty, 'README.md', {}, r.owner.auth)).response.status, 404, 'empty repository');
});

test('404 (empty): a private repository for anonymous callers and outsiders; an unknown repository', async () => {
  for (const auth of [undefined, r.outsider.auth]) {
    const res = await get(priv, 'README.md', {}, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoGetContents', res);
  }
  assert.is((await get({ full_name: `${r.owner.username}/nope` } as Repository, 'README.md', {}, r.owner.auth)).response.status, 404);
});

test('401: a wrong token; 403: a token without the repository scope', async () => {
  const bad = await get(repo, 'README.md', {}, `token ${'0'.repeat(40)}`);
  assert.is(bad.response.status, 401);
  assertSpec('repoGetContents', bad);
  const scoped = await get(repo, 'README.md', {}, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assertSpec('repoGetContents', scoped);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
});

test('422: a NUL character in the path or the ref', async () => {
  for (const path of ['README%00.md', 'README.md?ref=ma%00in']) {
    const res = await fetchRaw(app, `/repos/${repo.full_name}/contents/${path}`);
    assert.is(res.status, 422, path);
    assertSpecAnswer('repoGetContents', 422, JSON.parse(res.bytes.toString()));
  }
});

test.run();
