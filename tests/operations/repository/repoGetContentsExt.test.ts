import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { contentsWorld, type ContentsWorld } from '../../helpers/contents.js';
import { fetchRaw, getVerbatim, revOf, wrongScope } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Ext = components['schemas']['ContentsExtResponse'];

let app: TestApp;
let w: ContentsWorld;

test.before(async () => {
  app = await startApp();
  w = await contentsWorld(app);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, filepath: string, query: { ref?: string; includes?: string } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/contents-ext/{filepath}', { params: { path: { ...pathOf(target), filepath }, query } });

test('200: a file is file_contents alone, metadata only by default', async () => {
  const res = await get(w.repo, 'docs/guide.md');
  assert.is(res.response.status, 200);
  assertSpec('repoGetContentsExt', res);
  const body = res.data as Ext;
  assert.equal(Object.keys(body), ['file_contents']);
  const f = body.file_contents!;
  assert.is(f.type, 'file');
  assert.is(f.path, 'docs/guide.md');
  assert.is(f.sha, revOf(w.dir, `${w.tip}:docs/guide.md`));
  assert.is(f.content, null);
  assert.is(f.encoding, null);
  assert.is(f.last_commit_sha, undefined, 'no commit metadata unless asked for');
});

test('200: includes=file_content carries the content; commit_metadata the last commit, commit_message its message', async () => {
  const res = await get(w.repo, 'docs/guide.md', { includes: 'file_content,commit_metadata' });
  assert.is(res.response.status, 200);
  assertSpec('repoGetContentsExt', res);
  const f = (res.data as Ext).file_contents!;
  assert.is(Buffer.from(f.content!, 'base64').toString(), '# Guide\n');
  assert.is(f.encoding, 'base64');
  assert.is(f.last_commit_sha, w.tip);
  assert.is(f.last_committer_date, '2021-02-03T04:05:06Z');
  assert.is(f.last_commit_message, undefined);
  const withMessage = (await get(w.repo, 'docs/guide.md', { includes: 'commit_message,,lfs_metadata' })).data as Ext;
  assert.is(withMessage.file_contents!.last_commit_message, 'docs\n\nwith a body\n');
  assert.is(withMessage.file_contents!.content, null);
  const old = (await get(w.repo, 'docs/guide.md', { includes: 'file_content', ref: w.first })).data as Ext;
  assert.is(Buffer.from(old.file_contents!.content!, 'base64').toString(), 'old guide\n', 'ref: a commit');
  const dev = (await get(w.repo, 'docs/guide.md', { includes: 'file_content', ref: 'dev' })).data as Ext;
  assert.is(Buffer.from(dev.file_contents!.content!, 'base64').toString(), 'dev guide\n', 'ref: a branch');
});

test('200: a directory is dir_contents alone, entries without content even with file_content; `.` is the root', async () => {
  const res = await get(w.repo, 'docs', { includes: 'file_content' });
  assert.is(res.response.status, 200);
  assertSpec('repoGetContentsExt', res);
  const body = res.data as Ext;
  assert.equal(Object.keys(body), ['dir_contents']);
  assert.equal(body.dir_contents!.map((e) => [e.name, e.type, e.content]), [['guide.md', 'file', null], ['sub', 'dir', null], ['x.txt', 'file', null]]);
  assert.is(body.dir_contents![0]!.last_commit_sha, undefined);
  const withCommits = (await get(w.repo, 'docs', { includes: 'commit_metadata' })).data as Ext;
  assert.equal(withCommits.dir_contents!.map((e) => e.last_commit_sha), [w.tip, w.tip, w.tip]);
  // Sent as it is (a browser's fetch would drop the `.` segment, as URL normalisation does; Go clients send it).
  const root = await getVerbatim(app, `/repos/${w.repo.full_name}/contents-ext/.`);
  assert.is(root.status, 200);
  assert.equal((JSON.parse(root.body) as Ext).dir_contents!.map((e) => e.name), ['.editorconfig', 'README.md', 'docs', 'link']);
  const literal = await fetchRaw(app, `/repos/${w.repo.full_name}/contents-ext/docs/sub`);
  assert.is(literal.status, 200);
  assert.equal((JSON.parse(literal.bytes.toString()) as Ext).dir_contents!.map((e) => e.path), ['docs/sub/inner.go']);
});

test('200: a symbolic link carries its target', async () => {
  const f = ((await get(w.repo, 'link')).data as Ext).file_contents!;
  assert.is(f.type, 'symlink');
  assert.is(f.target, 'docs/guide.md');
  assert.is(f.content, null);
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers', async () => {
  for (const who of [w.r.owner, w.r.writer, w.r.reader, w.r.admin]) {
    const res = await get(w.priv, 'docs/x.txt', { includes: 'file_content' }, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.is(Buffer.from((res.data as Ext).file_contents!.content!, 'base64').toString(), 'x\n');
  }
  for (const auth of [w.r.outsider.auth, undefined]) {
    const res = await get(w.priv, 'docs/x.txt', {}, auth);
    assert.is(res.response.status, 404);
    assert.is(await res.response.text().catch(() => ''), '');
  }
  assert.is((await get(w.repo, 'docs/x.txt')).response.status, 200, 'anyone reads a public repository');
});

test('400: an unknown include option', async () => {
  const res = await get(w.repo, 'docs/x.txt', { includes: 'file_content,everything' });
  assert.is(res.response.status, 400);
  assertSpec('repoGetContentsExt', res);
  assert.equal(res.error, { message: 'unknown include option "everything"', url: swaggerOf(app) });
});

test('404: a missing path, `..`, an unknown ref, an empty repository', async () => {
  for (const [target, filepath, query] of [
    [w.repo, 'docs/nope.md', {}], [w.repo, 'docs/x.txt/deeper', {}], [w.repo, 'docs/../README.md', {}],
    [w.repo, 'docs/x.txt', { ref: 'no-such-branch' }], [w.empty, 'docs', {}], [w.empty, 'README.md', {}],
  ] as const) {
    const res = await get(target, filepath, query);
    assert.is(res.response.status, 404, `${filepath} ${JSON.stringify(query)}`);
    assertSpec('repoGetContentsExt', res);
  }
});

test('403: a token without the repository scope', async () => {
  const res = await get(w.repo, 'docs/x.txt', {}, await wrongScope(app, w.r.owner, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetContentsExt', res);
});

test.run();
