// PUT /repos/{owner}/{repo}/contents/{filepath}: replace (and move) a file whose current `sha` the caller
// names; a stale `sha` is refused, so concurrent writers never lose each other's changes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertCommitted, assertWriteGuards, b64 } from '../../helpers/files.js';
import { dirOf, disk, repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { messageOf, pathOf, raw, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Body = components['schemas']['UpdateFileOptions'];

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let dir: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  dir = dirOf(app, repo);
  await disk.commit(dir, 'main', { 'a.txt': 'a\n', 'docs/b.md': 'b\n', 'busy.txt': 'start\n' });
  // An executable file (the fixture writes 100644 files only).
  const tip = (await disk.tip(dir, 'main'))!;
  const blob = (await disk.run(dir, ['hash-object', '-w', '--stdin'], { input: '#!/bin/sh\n' })).trim();
  const idx = { GIT_INDEX_FILE: `${dir}/anvil-test-index` };
  await disk.run(dir, ['read-tree', tip], { env: idx });
  await disk.run(dir, ['update-index', '--add', '--cacheinfo', `100755,${blob},run.sh`], { env: idx });
  const tree = (await disk.run(dir, ['write-tree'], { env: idx })).trim();
  const c = (await disk.run(dir, ['commit-tree', tree, '-p', tip, '-m', 'exec'])).trim();
  await disk.run(dir, ['update-ref', 'refs/heads/main', c, tip]);
  await disk.run(dir, ['read-tree', '--empty'], { env: idx });
});
test.after(async () => {
  await app.close();
});

const update = (target: Repository, filepath: string, body: Body, authorization?: string) =>
  app.client(authorization).PUT('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...pathOf(target), filepath } }, body });
const blobOf = async (path: string, rev = 'main') => (await disk.run(dir, ['rev-parse', `${rev}:${path}`])).trim();

test('200: the new content, with Gitea\'s default message; an executable file stays executable', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await update(repo, 'a.txt', { content: b64('A\n'), sha: await blobOf('a.txt') }, r.writer.auth);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoUpdateFile', res);
  const { content, commit } = res.data!;
  await assertCommitted(dir, 'main', commit.sha, before);
  assert.is(commit.message, 'Update a.txt\n');
  assert.is(content!.sha, await blobOf('a.txt'));
  assert.is(content!.content, b64('A\n'));
  assert.is((await disk.file(dir, 'main', 'a.txt')).toString(), 'A\n');

  const exec = await update(repo, 'run.sh', { content: b64('#!/bin/sh\necho\n'), sha: await blobOf('run.sh') }, r.owner.auth);
  assert.is(exec.response.status, 200, JSON.stringify(exec.error));
  assert.match(await disk.run(dir, ['ls-tree', 'main', 'run.sh']), /^100755 /);
});

test('200: from_path moves the file (the old path is gone) in one commit', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await update(repo, 'moved/b.md', { content: b64('moved\n'), sha: await blobOf('docs/b.md'), from_path: 'docs/b.md', message: 'move b' }, r.writer.auth);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  await assertCommitted(dir, 'main', res.data!.commit.sha, before);
  const files = await disk.files(dir, 'main');
  assert.ok(files.includes('moved/b.md'));
  assert.not.ok(files.includes('docs/b.md'));
  assert.is(res.data!.content!.path, 'moved/b.md');
});

test('concurrency: 20 writers with the same sha — exactly one succeeds, the others are refused, nothing lost', async () => {
  const sha = await blobOf('busy.txt');
  const before = (await disk.tip(dir, 'main'))!;
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => update(repo, 'busy.txt', { content: b64(`writer ${i}\n`), sha }, i % 2 ? r.writer.auth : r.owner.auth)),
  );
  const ok = answers.flatMap((a, i) => (a.response.status === 200 ? [i] : []));
  assert.is(ok.length, 1, `one success: ${answers.map((a) => a.response.status)}`);
  for (const [i, a] of answers.entries()) {
    assertSpec('repoUpdateFile', a);
    if (i === ok[0]) continue;
    assert.is(a.response.status, 409, `request ${i}`);
    assert.match(messageOf(a.error), /sha does not match/);
  }
  const winner = answers[ok[0]!]!.data!;
  await assertCommitted(dir, 'main', winner.commit.sha, before);
  assert.is((await disk.file(dir, 'main', 'busy.txt')).toString(), `writer ${ok[0]}\n`);
  assert.is((await disk.run(dir, ['rev-list', '--merges', 'main'])).trim(), '', 'history is linear');
});

test('concurrency: 10 writers of different files on one branch — all land, one commit each, linear', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const creates = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    app.client(r.writer.auth).POST('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...pathOf(repo), filepath: `par/${i}.txt` } }, body: { content: b64(`${i}`) } })));
  assert.equal(creates.map((c) => c.response.status), Array(10).fill(201));
  assert.is((await disk.run(dir, ['rev-list', '--count', `${before}..main`])).trim(), '10');
  assert.is((await disk.run(dir, ['rev-list', '--merges', 'main'])).trim(), '');
  assert.equal((await disk.files(dir, 'main')).filter((f) => f.startsWith('par/')).length, 10);
  assert.is((await disk.run(dir, ['fsck', '--strict', '--no-progress'])).trim(), '');
});

test('401, 403, 404, 423: callers who may not write', async () => {
  const sha = await blobOf('a.txt');
  await assertWriteGuards(app, r, 'repoUpdateFile', repo, priv, async (target, auth) => {
    const res = await update(target, 'a.txt', { content: b64('g'), sha }, auth);
    return { status: res.response.status, body: res.data ?? res.error };
  });
});

test('404: no file at the path, or at from_path; `branch` does not exist', async () => {
  const sha = await blobOf('a.txt');
  for (const [path, body] of [['none.txt', {}], ['x.txt', { from_path: 'none.txt' }], ['a.txt', { branch: 'nope' }]] as const) {
    const res = await update(repo, path, { content: b64('x'), sha, ...body }, r.writer.auth);
    assert.is(res.response.status, 404, `${path} ${JSON.stringify(body)}`);
  }
});

test('409: a stale sha changes nothing', async () => {
  const before = await disk.tip(dir, 'main');
  const res = await update(repo, 'a.txt', { content: b64('x'), sha: '0'.repeat(40) }, r.writer.auth);
  assert.is(res.response.status, 409);
  assertSpec('repoUpdateFile', res);
  assert.match(messageOf(res.error), /sha does not match \[given: 0{40}, expected: [0-9a-f]{40}\]/);
  assert.is(await disk.tip(dir, 'main'), before, 'nothing committed');
});

test('422: a missing sha, a moved file onto an existing one, a directory', async () => {
  const before = await disk.tip(dir, 'main');
  const sha = await blobOf('a.txt');
  const cases: Array<[string, Partial<Body>, RegExp]> = [
    ['run.sh', { from_path: 'a.txt' }, /repository file already exists \[path: run\.sh\]/],
    ['moved', { sha: await blobOf('moved') }, /a directory exists/],
  ];
  for (const [path, body, pattern] of cases) {
    const res = await update(repo, path, { content: b64('x'), sha, ...body }, r.writer.auth);
    assert.is(res.response.status, 422, `${path} ${JSON.stringify(body)}`);
    assertSpec('repoUpdateFile', res);
    assert.match(messageOf(res.error), pattern, path);
  }
  const missing = await raw(app, 'PUT', `/repos/${repo.full_name}/contents/a.txt`, { body: JSON.stringify({ content: b64('x') }), authorization: r.writer.auth });
  assert.is(missing.response.status, 422);
  assertSpecAnswer('repoUpdateFile', 422, missing.body);
  assert.match(missing.body.message, /sha/);
  assert.is(await disk.tip(dir, 'main'), before, 'nothing committed');
});

test.run();
