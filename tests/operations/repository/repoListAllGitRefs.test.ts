// GET /repos/{owner}/{repo}/git/refs: every ref with the object it points at.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk } from '../../helpers/gitFixtures.js';
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

test('200: branches and tags (an annotated tag as its tag object), by name', async () => {
  const res = await jget(app, `/repos/${w.repo.full_name}/git/refs`);
  assert.is(res.status, 200);
  assertSpecAnswer('repoListAllGitRefs', 200, res.body);
  const tagObject = (await disk.run(w.dir, ['rev-parse', 'refs/tags/v1'])).trim();
  assert.equal(res.body, [
    { ref: 'refs/heads/feature/x', url: `${w.api}/git/refs/heads/feature/x`, object: { type: 'commit', sha: w.feature, url: `${w.api}/git/commits/${w.feature}` } },
    { ref: 'refs/heads/main', url: `${w.api}/git/refs/heads/main`, object: { type: 'commit', sha: w.main[3], url: `${w.api}/git/commits/${w.main[3]}` } },
    { ref: 'refs/tags/light', url: `${w.api}/git/refs/tags/light`, object: { type: 'commit', sha: w.main[1], url: `${w.api}/git/commits/${w.main[1]}` } },
    { ref: 'refs/tags/v1', url: `${w.api}/git/refs/tags/v1`, object: { type: 'tag', sha: tagObject, url: `${w.api}/git/tags/${tagObject}` } },
  ]);
});

test('200: one ref is answered as an object (Gitea)', async () => {
  const res = await jget(app, `/repos/${w.priv.full_name}/git/refs`, w.r.owner.auth);
  assert.is(res.status, 200);
  assert.is(res.body.ref, 'refs/heads/main');
});

test('200/404 by visibility; 401 for a wrong token; 404 without refs', async () => {
  await assertReadGuards(app, w, 'repoListAllGitRefs', async (repo, auth) => {
    const res = await jget(app, `/repos/${repo.full_name}/git/refs`, auth);
    return { status: res.status, body: res.body };
  });
  assert.is((await jget(app, `/repos/${w.empty.full_name}/git/refs`, w.r.owner.auth)).status, 404);
});

test.run();
