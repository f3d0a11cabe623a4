// GET /repos/{owner}/{repo}/git/trees/{sha}: a tree's entries, recursive and paged.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk } from '../../helpers/gitFixtures.js';
import { assertReadGuards, historyWorld, jget, type HistoryWorld } from '../../helpers/gitData.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: HistoryWorld;
let root: string;

test.before(async () => {
  app = await startApp();
  w = await historyWorld(app);
  await disk.commit(w.dir, 'sub', { 'lib': { gitlink: w.main[0]! } }, { from: 'main' });
  root = (await disk.run(w.dir, ['rev-parse', 'main^{tree}'])).trim();
});
test.after(async () => {
  await app.close();
});

const tree = (sha: string, query = '', auth?: string, full = w.repo.full_name) => jget(app, `/repos/${full}/git/trees/${sha}${query}`, auth);

test('200: the root tree by commit, branch, tag or tree id; entries with their urls', async () => {
  for (const sha of [w.main[3]!, 'main', root]) {
    const res = await tree(sha);
    assert.is(res.status, 200, sha);
    assertSpecAnswer('GetTree', 200, res.body);
    assert.is(res.body.sha, root);
  }
  const res = await tree('main');
  assert.equal(res.body.tree.map((e: { path: string; type: string }) => [e.path, e.type]), [['README.md', 'blob'], ['docs', 'tree'], ['src', 'tree']]);
  const src = res.body.tree[2];
  assert.is(src.url, `${w.api}/git/trees/${src.sha}`);
  assert.equal([src.mode, res.body.tree[0].url], ['040000', `${w.api}/git/blobs/${res.body.tree[0].sha}`]);
  assert.equal([res.body.truncated, res.body.page, res.body.total_count, res.body.url], [false, 1, 3, `${w.api}/git/trees/${root}`]);
  assert.is((await tree('v1')).body.total_count, 3);
});

test('200: recursive (trees included), paged with truncated; a submodule has an empty url', async () => {
  const all = await tree('main', '?recursive=true');
  assert.equal(all.body.tree.map((e: { path: string }) => e.path), ['README.md', 'docs', 'docs/x.md', 'src', 'src/a.txt', 'src/b.txt']);
  assert.equal(all.body.tree[4].size, 8);
  const p2 = await tree('main', '?recursive=true&per_page=4&page=2');
  assertSpecAnswer('GetTree', 200, p2.body);
  assert.equal([p2.body.tree.map((e: { path: string }) => e.path), p2.body.truncated, p2.body.total_count], [['src/a.txt', 'src/b.txt'], false, 6]);
  const p1 = await tree('main', '?recursive=true&per_page=4');
  assert.is(p1.body.truncated, true);
  const sub = await tree('sub');
  const lib = sub.body.tree.find((e: { path: string }) => e.path === 'lib');
  assert.equal([lib.type, lib.mode, lib.url, lib.sha], ['commit', '160000', '', w.main[0]]);
});

test('200/404 by visibility; 401 for a wrong token', async () => {
  await assertReadGuards(app, w, 'GetTree', async (repo, auth) => {
    const res = await tree('main', '', auth, repo.full_name);
    return { status: res.status, body: res.body };
  });
});

test('400: no tree of that name (Gitea), an empty repository', async () => {
  const blob = (await disk.run(w.dir, ['rev-parse', 'main:README.md'])).trim();
  for (const sha of ['nope', 'f'.repeat(40), blob, '--all']) {
    const res = await tree(sha);
    assert.is(res.status, 400, sha);
    assertSpecAnswer('GetTree', 400, res.body);
  }
  assert.is((await tree('main', '', w.r.owner.auth, w.empty.full_name)).status, 400);
});

test.run();
