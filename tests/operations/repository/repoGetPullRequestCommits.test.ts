import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, roles, type Roles } from '../../helpers/gitFixtures.js';
import { newIssue } from '../../helpers/issues.js';
import { mergePull, pullFixture } from '../../helpers/pulls.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let f: Awaited<ReturnType<typeof pullFixture>>;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  f = await pullFixture(app, r, { diverge: true });
});
test.after(async () => {
  await app.close();
});

const list = (index: number, auth: string | undefined, query: Record<string, string | number | boolean> = {}, target = f) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/commits', { params: { path: { ...target.repo.path, index }, query: query as never } });

test('200: the head\'s commits the base lacks, newest first, with files, line statistics, accounts and verification', async () => {
  const res = await list(f.pr.number, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetPullRequestCommits', res);
  const commits = res.data!;
  const expected = (await disk.run(f.dir, ['rev-list', `main..${f.branch}`])).split('\n').filter(Boolean);
  assert.equal(commits.map((c) => c.sha), expected);
  assert.is(res.response.headers.get('x-total-count'), '2');
  const [newest, oldest] = commits as [typeof commits[0], typeof commits[0]];
  assert.equal(newest.files, [{ filename: 'b.txt', status: 'added' }]);
  assert.equal(newest.stats, { total: 1, additions: 1, deletions: 0 });
  assert.equal(newest.parents.map((p) => p.sha), [oldest.sha]);
  assert.is(newest.commit.message, (await disk.run(f.dir, ['log', '-1', '--format=%B', newest.sha])).replace(/\n$/, ''));
  // diffpatch signs the writer's commits with their account's address: the account is found by it.
  assert.is(newest.author?.login, r.writer.username);
  assert.is(newest.commit.verification?.reason, 'gpg.error.not_signed_commit');
  assert.is(newest.html_url, `${app.url}/${f.repo.path.owner}/${f.repo.path.repo}/commit/${newest.sha}`);
  const anonymous = await list(f.pr.number, undefined);
  assert.is(anonymous.response.status, 200, 'anonymous callers of a public repository');
});

test('200: files=false and verification=false leave them out; pages with X-HasMore', async () => {
  const lean = await list(f.pr.number, r.reader.auth, { files: false, verification: false });
  assert.equal([lean.data![0]!.files, lean.data![0]!.commit.verification], [null, null]);
  assert.ok(lean.data![0]!.stats, 'statistics stay');
  const first = await list(f.pr.number, r.reader.auth, { limit: 1 });
  assert.equal([first.data!.length, first.response.headers.get('x-hasmore')], [1, 'true']);
  const second = await list(f.pr.number, r.reader.auth, { limit: 1, page: 2 });
  assert.equal([second.data!.length, second.response.headers.get('x-hasmore')], [1, 'false']);
  assert.is.not(second.data![0]!.sha, first.data![0]!.sha);
});

test('200: a merged pull request lists the commits it brought', async () => {
  const g = await pullFixture(app, r, { diverge: true });
  const before = (await list(g.pr.number, r.reader.auth, {}, g)).data!.map((c) => c.sha);
  assert.is((await mergePull(app, g.repo, r.writer.auth, g.pr.number, { Do: 'merge' })).response.status, 200);
  assert.equal((await list(g.pr.number, r.reader.auth, {}, g)).data!.map((c) => c.sha), before);
});

test('404: hidden repository, an issue\'s number, no such pull', async () => {
  const p = await pullFixture(app, r, { priv: true });
  assert.is((await list(p.pr.number, undefined, {}, p)).response.status, 404);
  assert.is((await list(p.pr.number, r.outsider.auth, {}, p)).response.status, 404);
  const issue = await newIssue(app, f.repo, r.reader);
  assert.is((await list(issue.number, r.reader.auth)).response.status, 404);
  assert.is((await list(999, r.reader.auth)).response.status, 404);
});

test.run();
