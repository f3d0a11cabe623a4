import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, type Roles } from '../../helpers/gitFixtures.js';
import { editIssue } from '../../helpers/issues.js';
import { addFile, openPull, patch, pullFixture } from '../../helpers/pulls.js';
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

type Fixture = Awaited<ReturnType<typeof pullFixture>>;
const byBranches = (f: Fixture, base: string, head: string, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/{base}/{head}', { params: { path: { ...f.repo.path, base, head } } });

test('200: the pull request from head to base, also as owner:branch and for a head with slashes; the newest one wins', async () => {
  const f = await pullFixture(app, r);
  const res = await byBranches(f, 'main', f.branch, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetPullRequestByBaseHead', res);
  assert.is(res.data!.number, f.pr.number);
  assert.is((await byBranches(f, 'main', `${f.repo.path.owner}:${f.branch}`)).data?.number, f.pr.number, 'owner:branch, anonymous');

  await patch(app, f.repo, r.writer, addFile('s.txt', ['s']), { newBranch: 'feature/deep/x' });
  const slashed = await openPull(app, f.repo, r.writer, 'feature/deep/x');
  const url = `${app.url}/api/v1/repos/${f.repo.path.owner}/${f.repo.path.repo}/pulls/main/feature/deep/x`;
  const raw = await fetch(url, { headers: { Authorization: r.reader.auth } });
  assert.is(raw.status, 200);
  assert.is(((await raw.json()) as { number: number }).number, slashed.number);

  await editIssue(app, f.repo, f.pr.number, r.writer, { state: 'closed' });
  assert.is((await byBranches(f, 'main', f.branch, r.reader.auth)).data?.number, f.pr.number, 'a closed one is found too');
  const again = await openPull(app, f.repo, r.writer, f.branch);
  assert.is((await byBranches(f, 'main', f.branch, r.reader.auth)).data?.number, again.number, 'the newest');
});

test('404: no such pull request, another owner\'s branch, a hidden repository', async () => {
  const f = await pullFixture(app, r, { priv: true });
  assert.is((await byBranches(f, 'main', 'nothing', r.reader.auth)).response.status, 404);
  assert.is((await byBranches(f, f.branch, 'main', r.reader.auth)).response.status, 404, 'the other way round');
  assert.is((await byBranches(f, 'main', `someone:${f.branch}`, r.reader.auth)).response.status, 404);
  assert.is((await byBranches(f, 'main', f.branch)).response.status, 404, 'anonymous');
  assert.is((await byBranches(f, 'main', f.branch, r.outsider.auth)).response.status, 404, 'outsider');
});

test.run();
