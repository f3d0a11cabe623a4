import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, fetchRaw, identity, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
let featureTip: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  featureTip = await disk.commit(dir, 'feature/x', { 'x.txt': 'x\n', 'README.md': null }, { from: 'main', message: 'feature x\n\nwith a body\n' });
  await disk.commit(dir, 'función/ñ', { 'ñ.txt': 'ñ' }, { from: 'main' });
  await disk.run(dir, ['tag', 'v1', featureTip]);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, branch: string, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(target), branch } } });

test('200: a branch with a slash in its name, escaped or not; the body matches git and the list', async () => {
  const res = await get(repo, 'feature/x', r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetBranch', res);
  const html = `${app.config.rootUrl}${repo.full_name}`;
  assert.equal(res.data, {
    name: 'feature/x',
    commit: {
      id: featureTip,
      message: 'feature x\n\nwith a body\n',
      url: `${html}/commit/${featureTip}`,
      author: { ...identity, username: '' },
      committer: { ...identity, username: '' },
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
      timestamp: res.data!.commit.timestamp,
      added: [],
      removed: [],
      modified: [],
    },
    protected: false,
    required_approvals: 0,
    enable_status_check: false,
    status_check_contexts: [],
    user_can_push: false,
    user_can_merge: false,
    effective_branch_protection_name: '',
  });
  const seconds = Number((await disk.run(dir, ['log', '-1', '--format=%ct', featureTip])).trim());
  assert.is(Date.parse(res.data!.commit.timestamp), seconds * 1000);

  const literal = await fetchRaw(app, `/repos/${repo.full_name}/branches/feature/x`, r.reader.auth);
  assert.is(literal.status, 200, 'a literal slash');
  assert.equal(JSON.parse(literal.bytes.toString('utf8')), res.data);
  const escaped = await fetchRaw(app, `/repos/${repo.full_name}/branches/feature%2Fx`, r.reader.auth);
  assert.is(escaped.status, 200, 'an escaped slash');
  assert.equal(JSON.parse(escaped.bytes.toString('utf8')), res.data);

  const listed = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: pathOf(repo) } });
  assert.equal(listed.data!.find((b) => b.name === 'feature/x'), res.data, 'the same as in the list');
});

test('200: the default branch, with the author matched to their account; a Unicode name', async () => {
  const res = await get(repo, 'main', r.owner.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetBranch', res);
  assert.is(res.data!.commit.id, (await disk.tip(dir, 'main'))!);
  assert.equal(res.data!.commit.author, { name: r.owner.username, email: r.owner.email, username: r.owner.username });
  assert.is(res.data!.user_can_push, true);

  const uni = await get(repo, 'función/ñ', r.reader.auth);
  assert.is(uni.response.status, 200);
  assert.is(uni.data!.name, 'función/ñ');
  assert.is(uni.data!.commit.id, (await disk.tip(dir, 'función/ñ'))!);
  const literal = await fetchRaw(app, `/repos/${repo.full_name}/branches/${encodeURIComponent('función')}/${encodeURIComponent('ñ')}`);
  assert.is(literal.status, 200);
});

test('200: user_can_push/user_can_merge for every role', async () => {
  const cases: Array<[string | undefined, boolean, string]> = [
    [undefined, false, 'anonymous'],
    [r.outsider.auth, false, 'outsider'],
    [r.reader.auth, false, 'reader'],
    [r.writer.auth, true, 'writer'],
    [r.owner.auth, true, 'owner'],
    [r.admin.auth, true, 'site admin'],
  ];
  for (const [auth, push, label] of cases) {
    const res = await get(repo, 'main', auth);
    assert.is(res.response.status, 200, label);
    assertSpec('repoGetBranch', res);
    assert.is(res.data!.user_can_push, push, label);
    assert.is(res.data!.user_can_merge, push, label);
  }
});

test('200 for collaborators of a private repository; 404 (empty) for anonymous callers and outsiders', async () => {
  for (const who of [r.reader, r.writer, r.owner, r.admin]) {
    assert.is((await get(priv, 'main', who.auth)).response.status, 200, who.username);
  }
  for (const auth of [undefined, r.outsider.auth]) {
    const res = await get(priv, 'main', auth);
    assert.is(res.response.status, 404);
    assertSpec('repoGetBranch', res);
    assert.is(res.error, undefined);
  }
});

test('404: no such branch — a tag, a commit, a prefix of a branch, bad names, an empty repository', async () => {
  const missing = ['nope', 'v1', featureTip, 'feature', 'feature/x/y', 'FEATURE/X', 'a..b', 'x.lock', '-x', 'refs/heads/main', 'heads/main'];
  for (const branch of missing) {
    const res = await get(repo, branch, r.owner.auth);
    assert.is(res.response.status, 404, branch);
    assertSpec('repoGetBranch', res);
    assert.is(res.error, undefined, branch);
  }
  const res = await get(empty, 'main', r.owner.auth);
  assert.is(res.response.status, 404, 'empty repository');
  assert.is((await get({ full_name: `${r.owner.username}/nope` } as Repository, 'main', r.owner.auth)).response.status, 404);
});

test('401: a wrong token; 403: a token without the repository scope', async () => {
  const bad = await get(repo, 'main', `token ${'0'.repeat(40)}`);
  assert.is(bad.response.status, 401);
  assertSpec('repoGetBranch', bad);
  const scoped = await get(repo, 'main', await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assertSpec('repoGetBranch', scoped);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  const ok = await get(repo, 'main', await app.token(r.owner, ['read:repository']));
  assert.is(ok.response.status, 200);
});

test('422: a NUL character in the branch name', async () => {
  const res = await fetchRaw(app, `/repos/${repo.full_name}/branches/ma%00in`, r.owner.auth);
  assert.is(res.status, 422);
  const body = JSON.parse(res.bytes.toString('utf8'));
  assertSpecAnswer('repoGetBranch', 422, body);
  assert.match(body.message, /branch/);
});

test.run();
