// GET /repos/{owner}/{repo}/git/refs/{ref}: the refs whose names start with refs/{ref}.
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

const refs = (prefix: string, auth?: string, full = w.repo.full_name) => jget(app, `/repos/${full}/git/refs/${prefix}`, auth);

test('200: a list for several matches, an object for one; prefixes with slashes', async () => {
  const heads = await refs('heads');
  assert.is(heads.status, 200);
  assertSpecAnswer('repoListGitRefs', 200, heads.body);
  assert.equal(heads.body.map((r: { ref: string }) => r.ref), ['refs/heads/feature/x', 'refs/heads/main']);
  const one = await refs('heads/feature/x');
  assertSpecAnswer('repoListGitRefs', 200, one.body);
  assert.equal([one.body.ref, one.body.object.sha], ['refs/heads/feature/x', w.feature]);
  const tags = await refs('tags/');
  assert.equal(tags.body.map((r: { ref: string; object: { type: string } }) => [r.ref, r.object.type]), [['refs/tags/light', 'commit'], ['refs/tags/v1', 'tag']]);
  assert.is((await refs('heads/ma')).body.ref, 'refs/heads/main', 'a prefix of the name matches');
});

test('200/404 by visibility; 401 for a wrong token', async () => {
  await assertReadGuards(app, w, 'repoListGitRefs', async (repo, auth) => {
    const res = await refs('heads/main', auth, repo.full_name);
    return { status: res.status, body: res.body };
  });
});

test('404: nothing matches', async () => {
  for (const p of ['heads/nope', 'pull', 'heads/main/x']) assert.is((await refs(p)).status, 404, p);
  assert.is((await refs('heads', w.r.owner.auth, w.empty.full_name)).status, 404);
});

test.run();
