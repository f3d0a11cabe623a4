// GET /repos/{owner}/{repo}/git/commits/{sha}: one commit, by id, branch or tag.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertReadGuards, historyWorld, jget, type HistoryWorld } from '../../helpers/gitData.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: HistoryWorld;

test.before(async () => {
  app = await startApp();
  w = await historyWorld(app);
});
test.after(async () => {
  await app.close();
});

const get = (sha: string, query = '', auth?: string, full = w.repo.full_name) => jget(app, `/repos/${full}/git/commits/${sha}${query}`, auth);

test('200: by full id, abbreviated id, branch and tag, with stats and files', async () => {
  const c3 = w.main[2]!;
  for (const sha of [c3, c3.slice(0, 8), 'v1']) {
    const res = await get(sha);
    assert.is(res.status, 200, sha);
    assertSpecAnswer('repoGetSingleCommit', 200, res.body);
    assert.is(res.body.sha, c3, sha);
  }
  const one = await get(c3);
  assert.equal(one.body.files, [{ filename: 'docs/x.md', status: 'added' }, { filename: 'src/b.txt', status: 'added' }]);
  assert.equal(one.body.stats, { total: 2, additions: 2, deletions: 0 });
  assert.is(one.body.commit.author.date, '2021-01-01T00:00:00Z');
  assert.is(one.body.html_url, `${app.config.rootUrl}${w.repo.full_name}/commit/${c3}`);
  assert.is((await get('main')).body.sha, w.main[3]);
  const lean = await get(c3, '?stat=false&files=false&verification=false');
  assert.equal([lean.body.stats, lean.body.files, lean.body.commit.verification], [null, null, null]);
});

test('200/404 by visibility; 401 for a wrong token', async () => {
  await assertReadGuards(app, w, 'repoGetSingleCommit', async (repo, auth) => {
    const res = await get('main', '', auth, repo.full_name);
    return { status: res.status, body: res.body };
  });
});

test('404: unknown commit or ref, an empty repository; 422: no valid ref', async () => {
  for (const sha of ['f'.repeat(40), 'nope']) assert.is((await get(sha)).status, 404, sha);
  assert.is((await get('main', '', w.r.owner.auth, w.empty.full_name)).status, 404);
  const bad = await get('a..b');
  assert.is(bad.status, 422);
  assertSpecAnswer('repoGetSingleCommit', 422, bad.body);
});

test.run();
