// GET /repos/{owner}/{repo}/compare/{basehead}: what head brings over base.
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

const compare = (basehead: string, auth?: string, full = w.repo.full_name) => jget(app, `/repos/${full}/compare/${basehead}`, auth);

test('200: commits head has that base lacks, and the files changed, for branches with slashes, tags and ids', async () => {
  const res = await compare('main...feature/x');
  assert.is(res.status, 200, JSON.stringify(res.body));
  assertSpecAnswer('repoCompareDiff', 200, res.body);
  assert.is(res.body.total_commits, 1);
  assert.equal(res.body.commits.map((c: { sha: string }) => c.sha), [w.feature]);
  assert.equal(res.body.files.map((f: { filename: string; status: string }) => [f.filename, f.status]), [['feat.txt', 'added']]);
  const tags = await compare(`light..${w.main[3]}`);
  assert.is(tags.body.total_commits, 2);
  assert.equal(tags.body.files.map((f: { filename: string }) => f.filename), ['docs/x.md', 'src/a.txt', 'src/b.txt']);
  const none = await compare('feature/x...main');
  assert.equal([none.body.total_commits, none.body.commits, none.body.files], [0, [], []]);
});

test('200/404 by visibility; 401 for a wrong token', async () => {
  await assertReadGuards(app, w, 'repoCompareDiff', async (repo, auth) => {
    const res = await compare('main...main', auth, repo.full_name);
    return { status: res.status, body: res.body };
  });
});

test('404: an unknown side, an empty repository; 422: no separator', async () => {
  for (const bh of ['main...nope', 'nope...main', '...main']) assert.is((await compare(bh)).status, 404, bh);
  assert.is((await compare('main...main', w.r.owner.auth, w.empty.full_name)).status, 404);
  const bad = await compare('main');
  assert.is(bad.status, 422);
  assertSpecAnswer('repoCompareDiff', 422, bad.body);
});

test.run();
