import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, type Roles } from '../../helpers/gitFixtures.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { getPull, mergePull, pullFixture } from '../../helpers/pulls.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

const get = (path: { owner: string; repo: string }, sha: string, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/commits/{sha}/pull', { params: { path: { ...path, sha } } });

test('200: the pull request a merge commit came from; 404 for its head commit or an unknown SHA', async () => {
  const f = await pullFixture(app, r);
  const merged = await mergePull(app, f.repo, r.owner.auth, f.pr.number, { Do: 'merge' });
  assert.is(merged.response.status, 200);
  const sha = (await getPull(app, f.repo, f.pr.number)).merge_commit_sha!;
  for (const auth of [undefined, r.reader.auth]) {
    const res = await get(f.repo.path, sha, auth);
    assert.is(res.response.status, 200);
    assertSpec('repoGetCommitPullRequest', res);
    assert.is(res.data!.number, f.pr.number);
    assert.is(res.data!.merged, true);
  }
  assertEmpty404(await get(f.repo.path, f.head), 'the head commit is no merge commit');
  const none = await get(f.repo.path, '0'.repeat(40));
  assertEmpty404(none);
  assertSpec('repoGetCommitPullRequest', none);
});

test('404: a private repository for an outsider', async () => {
  const f = await pullFixture(app, r, { priv: true });
  await mergePull(app, f.repo, r.owner.auth, f.pr.number, { Do: 'merge' });
  const sha = (await getPull(app, f.repo, f.pr.number, r.owner.auth)).merge_commit_sha!;
  assertEmpty404(await get(f.repo.path, sha, r.outsider.auth));
  assert.is((await get(f.repo.path, sha, r.reader.auth)).response.status, 200);
});

test.run();
