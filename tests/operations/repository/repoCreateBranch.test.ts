import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { eq } from 'drizzle-orm';
import { actionTriggers } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  dirOf, disk, identity, repoFor, roles, setArchived, wrongScope, type Roles,
} from '../../helpers/gitFixtures.js';
import { getRepo, messageOf, pathOf, raw, swaggerOf, type Actor, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Body = components['schemas']['CreateBranchRepoOption'];

let app: TestApp;
let r: Roles;
let repo: Repository; // public, main (2 commits), dev, tags v1 (lightweight) and v2 (annotated)
let priv: Repository;
let empty: Repository;
let dir: string;
let first: string; // main~1
let devTip: string;
let v1Commit: string;
let v2Commit: string;
let v2Object: string;

test.before(async () => {
  app = await startApp({ MAX_BODY_SIZE: '4096' });
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  first = (await disk.tip(dir, 'main'))!;
  await disk.commit(dir, 'main', { 'src/a.txt': 'a\n' });
  devTip = await disk.commit(dir, 'dev', { 'dev.txt': 'dev\n' }, { from: 'main' });
  v1Commit = await disk.commit(dir, 'tmp1', { 'v1.txt': 'v1\n' }, { from: 'main' });
  v2Commit = await disk.commit(dir, 'tmp2', { 'v2.txt': 'v2\n' }, { from: 'main' });
  await disk.run(dir, ['tag', 'v1', v1Commit]);
  await disk.run(dir, ['tag', '-a', '-m', 'release 2', 'v2', v2Commit]);
  await disk.run(dir, ['update-ref', '-d', 'refs/heads/tmp1']);
  await disk.run(dir, ['update-ref', '-d', 'refs/heads/tmp2']);
  v2Object = (await disk.rev(dir, 'refs/tags/v2'))!;
});
test.after(async () => {
  await app.close();
});

let n = 0;
const name = (prefix = 'b') => `${prefix}-${n++}`;

const create = (target: Repository, body: Body, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/branches', { params: { path: pathOf(target) }, body });

/** A 201 answer: the branch in the body and in git, pointing at `commit`. */
async function created(res: Awaited<ReturnType<typeof create>>, target: Repository, branch: string, commit: string, label = branch) {
  assert.is(res.response.status, 201, `${label}: ${JSON.stringify(res.error)}`);
  assertSpec('repoCreateBranch', res);
  const b = res.data!;
  assert.is(b.name, branch, label);
  assert.is(b.commit.id, commit, label);
  assert.is(await disk.tip(dirOf(app, target), branch), commit, `${label}: refs/heads/${branch} in git`);
  return b;
}

test('201: from the default branch; the full Branch, with the head commit as a PayloadCommit', async () => {
  const branch = name();
  const res = await create(repo, { new_branch_name: branch }, r.writer.auth);
  const main = (await disk.tip(dir, 'main'))!;
  const b = await created(res, repo, branch, main);
  const html = `${app.config.rootUrl}${repo.full_name}`;
  assert.equal(b, {
    name: branch,
    commit: {
      id: main,
      message: 'change src/a.txt\n',
      url: `${html}/commit/${main}`,
      author: { ...identity, username: '' },
      committer: { ...identity, username: '' },
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
      timestamp: b.commit.timestamp,
      added: [],
      removed: [],
      modified: [],
    },
    protected: false,
    required_approvals: 0,
    enable_status_check: false,
    status_check_contexts: [],
    user_can_push: true,
    user_can_merge: true,
    effective_branch_protection_name: '',
  });
  const committed = Number((await disk.run(dir, ['log', '-1', '--format=%ct', main])).trim());
  assert.is(Date.parse(b.commit.timestamp), committed * 1000, 'timestamp is the commit date');
  assert.equal((await disk.run(dir, ['for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`])).trim(), main);
});

test('201: Actions gets a trigger for a branch whose commit has workflow files, none for one without', async () => {
  const triggersOf = async (branch: string) =>
    (await app.services.deps.db.select().from(actionTriggers).where(eq(actionTriggers.ref, `refs/heads/${branch}`))).length;
  const plain = name();
  assert.is((await create(repo, { new_branch_name: plain, old_ref_name: 'main' }, r.writer.auth)).response.status, 201);
  assert.is(await triggersOf(plain), 0, 'no workflow files: nothing for Actions to do');
  const wfTip = await disk.commit(dir, `wf-${name()}`, { '.github/workflows/ci.yaml': 'on: push\njobs: {}\n' }, { from: 'main' });
  const withWorkflows = name();
  assert.is((await create(repo, { new_branch_name: withWorkflows, old_ref_name: wfTip }, r.writer.auth)).response.status, 201);
  assert.is(await triggersOf(withWorkflows), 1, 'a workflow file: the trigger worker reads it');
  await app.services.deps.db.delete(actionTriggers);
});

test('201: the author of the initial commit is matched to their account by e-mail', async () => {
  const branch = name();
  const res = await create(repo, { new_branch_name: branch, old_ref_name: first }, r.owner.auth);
  const b = await created(res, repo, branch, first);
  assert.equal(b.commit.author, { name: r.owner.username, email: r.owner.email, username: r.owner.username });
  assert.equal(b.commit.committer, b.commit.author);
  assert.is(b.commit.message, 'Initial commit\n');
});

test('201: old_ref_name may be a branch, a lightweight tag, an annotated tag (peeled) or a commit id', async () => {
  const cases: Array<[string, string]> = [
    ['dev', devTip],
    ['v1', v1Commit],
    ['v2', v2Commit],
    [first, first],
    [v1Commit.slice(0, 10), v1Commit],
  ];
  for (const [source, commit] of cases) {
    const branch = name('ref');
    await created(await create(repo, { new_branch_name: branch, old_ref_name: source }, r.writer.auth), repo, branch, commit, source);
  }
  assert.is.not(v2Object, v2Commit, 'v2 is a tag object');
});

test('201: precedence old_ref_name → old_branch_name → default branch; null and empty count as absent', async () => {
  const main = (await disk.tip(dir, 'main'))!;
  const cases: Array<[Omit<Body, 'new_branch_name'>, string]> = [
    [{ old_ref_name: 'v1', old_branch_name: 'dev' }, v1Commit],
    [{ old_ref_name: null, old_branch_name: 'dev' }, devTip],
    [{ old_ref_name: '', old_branch_name: 'dev' }, devTip],
    [{ old_branch_name: 'dev' }, devTip],
    [{ old_ref_name: null, old_branch_name: null }, main],
    [{ old_branch_name: '' }, main],
  ];
  for (const [body, commit] of cases) {
    const branch = name('prec');
    await created(await create(repo, { new_branch_name: branch, ...body }, r.writer.auth), repo, branch, commit, JSON.stringify(body));
  }
});

test('201: for writers, the owner and the site admin, each with user_can_push/user_can_merge', async () => {
  for (const who of [r.writer, r.owner, r.admin]) {
    const branch = name('who');
    const b = await created(await create(repo, { new_branch_name: branch }, who.auth), repo, branch, (await disk.tip(dir, 'main'))!, who.username);
    assert.is(b.user_can_push, true, who.username);
    assert.is(b.user_can_merge, true, who.username);
  }
  const p = name('priv');
  await created(await create(priv, { new_branch_name: p }, r.writer.auth), priv, p, (await disk.tip(dirOf(app, priv), 'main'))!, 'private');
});

test('201: a token with write:repository; the branch count follows', async () => {
  const branch = name('tok');
  const token = await app.token(r.writer, ['write:repository']);
  await created(await create(repo, { new_branch_name: branch }, token), repo, branch, (await disk.tip(dir, 'main'))!);
  const after = (await getRepo(app, r.owner.username, repo.name, r.owner.auth)).data!.branch_count;
  assert.is(after, (await disk.run(dir, ['for-each-ref', 'refs/heads/'])).trim().split('\n').length);
});

test('201: Unicode names, names with slashes and a name of exactly 100 characters', async () => {
  for (const branch of ['función/ñ', '功能/分支', 'feature/deep/er', 'x'.repeat(100), 'v1.2_rc-3', 'a@b']) {
    const res = await create(repo, { new_branch_name: branch }, r.writer.auth);
    await created(res, repo, branch, (await disk.tip(dir, 'main'))!);
  }
  assert.match(await disk.run(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/función/']), /^refs\/heads\/función\/ñ$/m);
  const back = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(repo), branch: 'función/ñ' } } });
  assert.is(back.response.status, 200);
  assert.is(back.data!.name, 'función/ñ');
});

test('401: anonymous callers and a wrong token', async () => {
  for (const auth of [undefined, `token ${'0'.repeat(40)}`]) {
    const branch = name('anon');
    const res = await create(repo, { new_branch_name: branch }, auth);
    assert.is(res.response.status, 401);
    assertSpec('repoCreateBranch', res);
    assert.is(await disk.tip(dir, branch), undefined);
  }
  const res = await create(repo, { new_branch_name: name() });
  assert.equal(res.error, { message: 'token is required', url: swaggerOf(app) });
});

test('403: readers and signed-in outsiders of a public repository; nothing is created', async () => {
  for (const who of [r.reader, r.outsider]) {
    const branch = name('no');
    const res = await create(repo, { new_branch_name: branch }, who.auth);
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoCreateBranch', res);
    assert.equal(res.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
    assert.is(await disk.tip(dir, branch), undefined);
  }
  const res = await create(priv, { new_branch_name: name() }, r.reader.auth);
  assert.is(res.response.status, 403, 'a reader of a private repository');
});

test('403: a token without write:repository', async () => {
  const branch = name('scope');
  const res = await create(repo, { new_branch_name: branch }, await wrongScope(app, r.owner, true));
  assert.is(res.response.status, 403);
  assertSpec('repoCreateBranch', res);
  assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
  assert.is(await disk.tip(dir, branch), undefined);
});

test('404: a private repository for outsiders, an unknown repository (empty bodies)', async () => {
  const cases: Array<[Repository | { full_name: string }, Actor]> = [
    [priv, r.outsider],
    [{ full_name: `${r.owner.username}/nope` }, r.owner],
    [{ full_name: `nobody-here/${repo.name}` }, r.admin],
  ];
  for (const [target, who] of cases) {
    const res = await create(target as Repository, { new_branch_name: name() }, who.auth);
    assert.is(res.response.status, 404, target.full_name);
    assertSpec('repoCreateBranch', res);
    assert.is(res.error, undefined, 'empty body');
  }
});

test('404: an empty repository', async () => {
  const res = await create(empty, { new_branch_name: 'main' }, r.writer.auth);
  assert.is(res.response.status, 404);
  assertSpec('repoCreateBranch', res);
  assert.is((await disk.run(dirOf(app, empty), ['for-each-ref'])).trim(), '', 'still no refs');
});

test('404: a source that does not exist', async () => {
  const cases: Array<Omit<Body, 'new_branch_name'>> = [
    { old_ref_name: 'nope' },
    { old_ref_name: 'f'.repeat(40) },
    { old_ref_name: 'nope', old_branch_name: 'dev' },
    { old_branch_name: 'nope' },
    { old_branch_name: 'v1' }, // a tag is not a branch
    { old_branch_name: first }, // nor is a commit
  ];
  for (const body of cases) {
    const branch = name('miss');
    const res = await create(repo, { new_branch_name: branch, ...body }, r.writer.auth);
    assert.is(res.response.status, 404, JSON.stringify(body));
    assertSpec('repoCreateBranch', res);
    assert.is(await disk.tip(dir, branch), undefined, JSON.stringify(body));
  }
});

test('409: an existing branch, a tag of that name, and path conflicts in both directions', async () => {
  await created(await create(repo, { new_branch_name: 'topic' }, r.writer.auth), repo, 'topic', (await disk.tip(dir, 'main'))!);
  await created(await create(repo, { new_branch_name: 'deep/er/est' }, r.writer.auth), repo, 'deep/er/est', (await disk.tip(dir, 'main'))!);
  const cases: Array<[string, string]> = [
    ['dev', 'The branch already exists.'],
    ['main', 'The branch already exists.'],
    ['v1', 'The branch with the same tag already exists.'],
    ['v2', 'The branch with the same tag already exists.'],
    ['topic/sub', 'The branch with the same name already exists.'],
    ['deep', 'The branch with the same name already exists.'],
    ['deep/er', 'The branch with the same name already exists.'],
  ];
  for (const [branch, message] of cases) {
    const before = await disk.run(dir, ['for-each-ref']);
    const res = await create(repo, { new_branch_name: branch, old_ref_name: first }, r.writer.auth);
    assert.is(res.response.status, 409, branch);
    assertSpec('repoCreateBranch', res);
    assert.equal(res.error, { message, url: swaggerOf(app) }, branch);
    assert.is(await disk.run(dir, ['for-each-ref']), before, `${branch}: refs unchanged`);
  }
});

test('409: two requests for one new name at once: one 201, one 409', async () => {
  const branch = name('race');
  const answers = await Promise.all([r.writer, r.owner].map((who) => create(repo, { new_branch_name: branch, old_ref_name: 'dev' }, who.auth)));
  assert.equal(answers.map((a) => a.response.status).sort(), [201, 409]);
  assert.is(await disk.tip(dir, branch), devTip);
});

test('422: names that are not valid git ref names, or longer than 100 characters', async () => {
  const bad = ['a..b', 'a.lock', 'a/b.lock/c', '-x', 'a b', 'a~1', 'a^b', 'a:b', 'a?b', 'a*b', 'a[b', 'a\\b', 'x/', '/x', 'x.',
    '.x', 'a/.b', 'a//b', 'a@{1}', '@', 'tab\there', 'del\x7f', 'x'.repeat(101), '',
    // Not branch names to `git check-ref-format --branch` or Gitea: HEAD, a full ref name, a full commit id.
    'HEAD', 'refs/heads/x', 'refs/tags/v9', first, 'ab'.repeat(32),
    // Not text at all: a lone surrogate (it has no UTF-8 form) and NUL.
    '\ud800x', 'x\udfff', 'nul\0'];
  for (const branch of bad) {
    const res = await create(repo, { new_branch_name: branch }, r.writer.auth);
    assert.is(res.response.status, 422, JSON.stringify(branch));
    assertSpec('repoCreateBranch', res);
    assert.match(messageOf(res.error), /new_branch_name/, JSON.stringify(branch));
  }
  const heads = await disk.run(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/']);
  assert.not.match(heads, /\.lock|a~1|\.\.|HEAD|refs\/heads\/refs|[0-9a-f]{40}|\ufffd|nul/);
  for (const body of [{ old_ref_name: 'a..b' }, { old_branch_name: 'x'.repeat(101) }, { old_ref_name: '-x' }]) {
    const res = await create(repo, { new_branch_name: name(), ...body }, r.writer.auth);
    assert.is(res.response.status, 422, JSON.stringify(body));
    assert.match(messageOf(res.error), new RegExp(Object.keys(body)[0]!));
  }
  const missing = await raw(app, 'POST', `/repos/${repo.full_name}/branches`, { body: '{"old_ref_name":"dev"}', authorization: r.writer.auth });
  assert.is(missing.response.status, 422);
  assertSpecAnswer('repoCreateBranch', 422, missing.body);
  assert.equal(missing.body, { message: '[new_branch_name]: Required', url: swaggerOf(app) });
});

test('423: an archived repository, for writers; readers still get 403', async () => {
  const archived = await repoFor(app, r);
  await setArchived(app, archived, r.owner);
  for (const who of [r.writer, r.owner, r.admin]) {
    const res = await create(archived, { new_branch_name: 'nope' }, who.auth);
    assert.is(res.response.status, 423, who.username);
    assertSpec('repoCreateBranch', res);
    assert.equal(res.error, { message: 'repo is archived', url: swaggerOf(app) });
  }
  assert.is(await disk.tip(dirOf(app, archived), 'nope'), undefined);
  assert.is((await create(archived, { new_branch_name: 'nope' }, r.reader.auth)).response.status, 403);
});

test('400: a malformed JSON body; 413: a body over the size limit', async () => {
  const bad = await raw(app, 'POST', `/repos/${repo.full_name}/branches`, { body: '{"new_branch_name":', authorization: r.writer.auth });
  assert.is(bad.response.status, 400);
  assertSpecAnswer('repoCreateBranch', 400, bad.body);
  assert.match(bad.body.message, /invalid JSON body/);
  const big = JSON.stringify({ new_branch_name: name(), old_ref_name: 'dev', padding: 'x'.repeat(5000) });
  const tooLarge = await raw(app, 'POST', `/repos/${repo.full_name}/branches`, { body: big, authorization: r.writer.auth });
  assert.is(tooLarge.response.status, 413);
  assertSpecAnswer('repoCreateBranch', 413, tooLarge.body);
});

test.run();
