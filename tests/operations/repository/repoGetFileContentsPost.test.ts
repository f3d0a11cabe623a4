import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { contentsWorld, type ContentsWorld } from '../../helpers/contents.js';
import { disk, dirOf, repoFor, wrongScope } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Contents = components['schemas']['ContentsResponse'];

let app: TestApp;
let w: ContentsWorld;

test.before(async () => {
  app = await startApp();
  w = await contentsWorld(app);
});
test.after(async () => {
  await app.close();
});

const post = (target: Repository, files: string[], query: { ref?: string } = {}, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/file-contents', { params: { path: pathOf(target), query }, body: { files } });
const text = (c: Contents | null) => (c?.content ? Buffer.from(c.content, 'base64').toString() : c?.content);

test('200: one answer per path, in order: content and last commit, null where nothing is', async () => {
  const res = await post(w.repo, ['docs/x.txt', 'nope.txt', 'docs/guide.md', 'docs', '../etc/passwd', 'link']);
  assert.is(res.response.status, 200);
  assertSpec('repoGetFileContentsPost', res);
  const list = res.data as Array<Contents | null>;
  assert.is(list.length, 6);
  assert.is(text(list[0]!), 'x\n');
  assert.is(list[0]!.encoding, 'base64');
  assert.is(list[0]!.last_commit_sha, w.tip);
  assert.is(list[0]!.last_commit_message, 'docs\n\nwith a body\n');
  assert.is(list[1], null);
  assert.is(text(list[2]!), '# Guide\n');
  assert.equal([list[3]!.type, list[3]!.content], ['dir', null]);
  assert.is(list[4], null);
  assert.equal([list[5]!.type, list[5]!.target, list[5]!.content], ['symlink', 'docs/guide.md', null]);
  const old = (await post(w.repo, ['docs/guide.md'], { ref: w.first })).data as Contents[];
  assert.is(text(old[0]!), 'old guide\n');
  const none = await post(w.repo, []);
  assert.equal(none.data, []);
});

test('200: at most 30 entries; a blob over 10 MiB without its content', async () => {
  const many = await post(w.repo, Array.from({ length: 40 }, () => 'docs/x.txt'));
  assert.is((many.data as Contents[]).length, 30);
  const big = await repoFor(app, w.r);
  const dir = dirOf(app, big);
  await disk.commit(dir, 'main', { 'big.bin': Buffer.alloc(10 * 1024 * 1024 + 1, 7), 'small.txt': 's\n' });
  const res = await post(big, ['big.bin', 'small.txt'], {}, w.r.owner.auth);
  const [b, s] = res.data as Contents[];
  assert.equal([b!.size, b!.content, b!.encoding], [10 * 1024 * 1024 + 1, null, null]);
  assert.is(text(s!), 's\n');
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers', async () => {
  for (const who of [w.r.owner, w.r.writer, w.r.reader, w.r.admin]) {
    const res = await post(w.priv, ['docs/x.txt'], {}, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.is(text((res.data as Contents[])[0]!), 'x\n');
  }
  for (const auth of [w.r.outsider.auth, undefined]) assert.is((await post(w.priv, ['docs/x.txt'], {}, auth)).response.status, 404);
});

test('404: an unknown ref, an empty repository', async () => {
  for (const [target, query] of [[w.repo, { ref: 'nope' }], [w.empty, {}]] as const) {
    const res = await post(target, ['README.md'], query);
    assert.is(res.response.status, 404);
    assertSpec('repoGetFileContentsPost', res);
  }
});

test('422: files not a list of strings', async () => {
  const res = await app.client().POST('/repos/{owner}/{repo}/file-contents', { params: { path: pathOf(w.repo) }, body: { files: [1] as unknown as string[] } });
  assert.is(res.response.status, 422);
  assertSpec('repoGetFileContentsPost', res);
});

test('403: a POST needs a token with write scope, as in Gitea (a read-only token is refused)', async () => {
  const res = await post(w.repo, ['docs/x.txt'], {}, await wrongScope(app, w.r.owner, true));
  assert.is(res.response.status, 403);
  assertSpec('repoGetFileContentsPost', res);
  const ok = await post(w.repo, ['docs/x.txt'], {}, await app.token(w.r.owner, ['write:repository']));
  assert.is(ok.response.status, 200);
});

test.run();
