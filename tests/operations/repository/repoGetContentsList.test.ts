import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, fetchRaw, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
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
let first: string;

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
  first = (await disk.tip(dir, 'main'))!;
  await disk.commit(dir, 'main', {
    'docs/guide.md': 'guide\n',
    'a.txt': 'a\n',
    'a/inner.txt': 'inner\n',
    'link': { symlink: 'a.txt' },
    '.gitmodules': '[submodule "Lib"]\n\tpath = vendor-lib\n\turl = ../lib.git\n[submodule "tool"]\n\tpath = tool\n\turl = git@example.com:team/tool.git\n',
    'vendor-lib': { gitlink: first },
    'tool': { gitlink: first },
  });
  await disk.commit(dir, 'dev', { 'dev-only.txt': 'dev\n' }, { from: first });
  await disk.run(dir, ['tag', 'v0', first]);
});
test.after(async () => {
  await app.close();
});

const list = (target: Repository, query: { ref?: string } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/contents', { params: { path: pathOf(target), query } });

test('200: the root\'s entries in git tree order, metadata only, with links at the default branch', async () => {
  const res = await list(repo, {}, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetContentsList', res);
  const entries = res.data!;
  assert.equal(entries.map((e) => [e.name, e.type]), [
    ['.gitmodules', 'file'], ['README.md', 'file'], ['a.txt', 'file'], ['a', 'dir'], ['docs', 'dir'], ['link', 'symlink'], ['tool', 'submodule'],
    ['vendor-lib', 'submodule'],
  ]);
  const tree = (await disk.run(dir, ['ls-tree', '-z', 'main'])).split('\0').filter(Boolean).map((l) => l.split('\t')[1]);
  assert.equal(entries.map((e) => e.path), tree, 'the order git keeps');
  for (const e of entries) {
    const sha = (await disk.rev(dir, `main:${e.path}`))!;
    assert.is(e.sha, sha, e.path);
    assert.is(e.content, null, e.path);
    assert.is(e.encoding, null, e.path);
    assert.is(e.url, `${api}/contents/${encodeURIComponent(e.path)}?ref=main`, e.path);
    assert.is(e._links.self, e.url);
    if (e.type === 'file') {
      assert.is(e.size, Number((await disk.run(dir, ['cat-file', '-s', sha])).trim()), e.path);
      assert.is(e.git_url, `${api}/git/blobs/${sha}`);
      assert.ok(e.download_url?.startsWith(`${html}/raw/`) && e.download_url.endsWith(`/${e.path}`), e.download_url ?? 'null');
    }
    if (e.type === 'dir') {
      assert.is(e.git_url, `${api}/git/trees/${sha}`);
      assert.is(e.download_url, null);
    }
    if (e.type !== 'submodule') assert.ok(e.html_url?.startsWith(`${html}/src/`) && e.html_url.endsWith(`/${e.path}`), e.path);
  }
  // Relative URLs resolve against the clone URL as git does; scp-like ones become ssh:// URLs (the spec wants a URI).
  const sub = entries.find((e) => e.name === 'vendor-lib')!;
  assert.equal([sub.sha, sub.submodule_git_url, sub.html_url, sub.git_url, sub.download_url],
    [first, `${app.config.rootUrl}${r.owner.username}/lib.git`, null, null, null]);
  assert.is(entries.find((e) => e.name === 'tool')!.submodule_git_url, 'ssh://git@example.com/team/tool.git');
  const link = entries.find((e) => e.type === 'symlink')!;
  assert.is(link.target, null, 'metadata only: no target in a listing');
});

test('200: ref may be a branch, a tag or a commit; empty ref is the default branch', async () => {
  const cases: Array<[string, string[]]> = [
    ['dev', ['README.md', 'dev-only.txt']],
    ['v0', ['README.md']],
    [first, ['README.md']],
    ['', ['.gitmodules', 'README.md', 'a.txt', 'a', 'docs', 'link', 'tool', 'vendor-lib']],
  ];
  for (const [ref, names] of cases) {
    const res = await list(repo, { ref });
    assert.is(res.response.status, 200, ref);
    assertSpec('repoGetContentsList', res);
    assert.equal(res.data!.map((e) => e.name), names, ref);
    assert.ok(res.data!.every((e) => e.url!.endsWith(`?ref=${ref || 'main'}`)), ref);
  }
});

test('200: anyone who can read the code; a private repository for its collaborators', async () => {
  const callers: Array<[string | undefined, string]> = [
    [undefined, 'anonymous'], [r.outsider.auth, 'outsider'], [r.reader.auth, 'reader'], [r.writer.auth, 'writer'],
    [r.owner.auth, 'owner'], [r.admin.auth, 'site admin'], [await app.token(r.outsider, ['read:repository']), 'read token'],
  ];
  for (const [auth, label] of callers) assert.is((await list(repo, {}, auth)).data!.length, 8, label);
  for (const who of [r.reader, r.writer, r.owner, r.admin]) {
    const res = await list(priv, {}, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.equal(res.data!.map((e) => e.name), ['README.md']);
  }
});

test('404 (empty): an unknown ref, an empty repository, an invisible or unknown repository', async () => {
  const cases: Array<[Repository, { ref?: string }, string | undefined, string]> = [
    [repo, { ref: 'nope' }, r.owner.auth, 'unknown ref'],
    [repo, { ref: 'f'.repeat(40) }, r.owner.auth, 'unknown commit'],
    [empty, {}, r.owner.auth, 'empty repository'],
    [empty, { ref: 'main' }, r.owner.auth, 'empty repository, main'],
    [priv, {}, undefined, 'private, anonymous'],
    [priv, {}, r.outsider.auth, 'private, outsider'],
    [{ full_name: `${r.owner.username}/nope` } as Repository, {}, r.owner.auth, 'unknown repository'],
  ];
  for (const [target, query, auth, label] of cases) {
    const res = await list(target, query, auth);
    assert.is(res.response.status, 404, label);
    assertSpec('repoGetContentsList', res);
    assert.is(res.error, undefined, label);
  }
});

test('401: a wrong token; 403: a token without the repository scope; 422: a NUL in ref', async () => {
  const bad = await list(repo, {}, `token ${'0'.repeat(40)}`);
  assert.is(bad.response.status, 401);
  assertSpec('repoGetContentsList', bad);
  const scoped = await list(repo, {}, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  const nul = await fetchRaw(app, `/repos/${repo.full_name}/contents?ref=ma%00in`);
  assert.is(nul.status, 422);
  assertSpecAnswer('repoGetContentsList', 422, JSON.parse(nul.bytes.toString()));
});

test.run();
