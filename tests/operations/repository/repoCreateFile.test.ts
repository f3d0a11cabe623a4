// POST /repos/{owner}/{repo}/contents/{filepath}: a new file in one commit, without a work tree.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { eventsOf } from '../../helpers/events.js';
import { assertCommitted, assertWriteGuards, b64 } from '../../helpers/files.js';
import { dirOf, disk, repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { protectOk } from '../../helpers/pulls.js';
import { messageOf, pathOf, raw, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Body = components['schemas']['CreateFileOptions'];

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let dir: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  dir = dirOf(app, repo);
  await disk.commit(dir, 'main', { 'docs/a.md': 'a\n', 'link': { symlink: 'docs' } });
  await disk.commit(dir, 'dev', { 'dev.txt': 'dev\n' }, { from: 'main' });
});
test.after(async () => {
  await app.close();
});

const create = (target: Repository, filepath: string, body: Body, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...pathOf(target), filepath } }, body });

test('201: the file and its commit on the default branch, by the caller; a push event is recorded', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await create(repo, 'src/deep/new file.txt', { content: b64('hello ñ\n') }, r.writer.auth);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoCreateFile', res);
  const { content, commit, verification } = res.data!;
  await assertCommitted(dir, 'main', commit.sha, before);
  assert.is((await disk.file(dir, commit.sha, 'src/deep/new file.txt')).toString(), 'hello ñ\n');
  const blob = (await disk.run(dir, ['rev-parse', `${commit.sha}:src/deep/new file.txt`])).trim();
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  assert.equal(
    { name: content!.name, path: content!.path, sha: content!.sha, type: content!.type, size: content!.size, content: content!.content, encoding: content!.encoding, url: content!.url, last: content!.last_commit_sha },
    { name: 'new file.txt', path: 'src/deep/new file.txt', sha: blob, type: 'file', size: 9, content: b64('hello ñ\n'), encoding: 'base64', url: `${api}/contents/src/deep/new%20file.txt?ref=main`, last: commit.sha },
  );
  assert.is(commit.message, 'Add src/deep/new file.txt\n');
  assert.equal([commit.author.name, commit.author.email], [r.writer.username, r.writer.email]);
  assert.equal(commit.parents.map((p) => p.sha), [before]);
  assert.is(verification.reason, 'gpg.error.not_signed_commit');
  const { rows } = await eventsOf(app, repo.id);
  const push = rows.filter((e) => e.type === 'push').at(-1)!;
  assert.match(JSON.stringify(push), new RegExp(commit.sha), 'the push event names the new commit');
});

test('201: on a new branch made from `branch`; message, identities, dates and sign-off', async () => {
  const devTip = (await disk.tip(dir, 'dev'))!;
  const mainTip = await disk.tip(dir, 'main');
  const res = await create(repo, 'topic.txt', {
    content: b64('t'), branch: 'dev', new_branch: 'topic/one', message: 'Make topic',
    author: { name: 'Alice', email: 'alice@example.com' }, dates: { author: '2020-01-02T03:04:05Z', committer: '2021-01-01T00:00:00Z' }, signoff: true,
  }, r.owner.auth);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  const { commit, content } = res.data!;
  await assertCommitted(dir, 'topic/one', commit.sha, devTip);
  assert.is(await disk.tip(dir, 'dev'), devTip, 'dev untouched');
  assert.is(await disk.tip(dir, 'main'), mainTip, 'main untouched');
  assert.is(commit.message, 'Make topic\n\nSigned-off-by: Alice <alice@example.com>\n');
  assert.equal([commit.author.name, commit.committer.name, commit.author.date, commit.committer.date], ['Alice', 'Alice', '2020-01-02T03:04:05Z', '2021-01-01T00:00:00Z']);
  assert.match(content!.url!, /\?ref=topic%2Fone$/);
  assert.ok((await disk.files(dir, commit.sha)).includes('dev.txt'));
});

test('201: an empty repository gets its first commit, branch and default branch', async () => {
  const empty = await repoFor(app, r, { auto_init: false });
  const res = await create(empty, 'README.md', { content: b64('# first\n'), new_branch: 'trunk' }, r.writer.auth);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  const d = dirOf(app, empty);
  await assertCommitted(d, 'trunk', res.data!.commit.sha, undefined);
  const got = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(empty) } });
  assert.is(got.data!.empty, false);
  assert.is(got.data!.default_branch, 'trunk');
  assert.is((await disk.run(d, ['symbolic-ref', 'HEAD'])).trim(), 'refs/heads/trunk');
});

test('201: site admin and a write:repository token; a private repository', async () => {
  const privDir = dirOf(app, priv);
  const callers: Array<[string, string]> = [[r.admin.auth, r.admin.username], [await app.token(r.writer, ['write:repository']), r.writer.username]];
  for (const [auth, who] of callers) {
    const name = `by-${who}.txt`;
    const text = `written by ${who}\n`;
    const before = await disk.tip(privDir, priv.default_branch);
    const res = await create(priv, name, { content: b64(text) }, auth);
    assert.is(res.response.status, 201, JSON.stringify(res.error));
    const sha = res.data!.commit.sha;
    // The commit is the branch's new tip, holds the content sent, and is authored by the caller.
    await assertCommitted(privDir, priv.default_branch, sha, before);
    assert.is((await disk.file(privDir, sha, name)).toString(), text);
    assert.is((await disk.run(privDir, ['log', '-1', '--format=%an', sha])).trim(), who);
    assert.is(res.data!.content!.path, name);
  }
});

test('201: a full name git would refuse (only dots, spaces or quotes) signs the commit with the login', async () => {
  for (const full_name of ['.', ' ', '"<>"']) {
    const set = await app.client(r.writer.auth).PATCH('/user/settings', { body: { full_name } });
    assert.is(set.response.status, 200, JSON.stringify(set.error));
    const res = await create(repo, `odd-name-${encodeURIComponent(full_name)}.txt`, { content: b64('x\n') }, r.writer.auth);
    assert.is(res.response.status, 201, `${JSON.stringify(full_name)}: ${JSON.stringify(res.error)}`);
    assert.is(res.data!.commit!.author!.name, r.writer.username, JSON.stringify(full_name));
  }
  // Control characters inside a name reach git as they are; the answer still parses the commit's author line.
  const odd = 'a\rb\tc\bd';
  assert.is((await app.client(r.writer.auth).PATCH('/user/settings', { body: { full_name: odd } })).response.status, 200);
  const res = await create(repo, 'odd-name-control.txt', { content: b64('x\n') }, r.writer.auth);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoCreateFile', res);
  assert.is(res.data!.commit!.author!.name, odd);
  assert.ok(res.data!.commit!.author!.email!.includes('@'), res.data!.commit!.author!.email);
  await app.client(r.writer.auth).PATCH('/user/settings', { body: { full_name: '' } });
});

test('403: a protected branch the caller may not push to', async () => {
  await disk.commit(dir, 'guarded', { 'g.txt': 'g' }, { from: 'main' });
  await protectOk(app, repo, r.owner.auth, { rule_name: 'guarded', enable_push: false });
  const before = await disk.tip(dir, 'guarded');
  for (const body of [{ branch: 'guarded' }, { new_branch: 'guarded', force_push: true }]) {
    const res = await create(repo, 'no.txt', { content: b64('n'), ...body }, r.writer.auth);
    assert.is(res.response.status, 403, JSON.stringify(body));
    assertSpec('repoCreateFile', res);
    assert.match(messageOf(res.error), /branch protected/);
  }
  assert.is(await disk.tip(dir, 'guarded'), before);
});

test('401, 403, 404, 423: callers who may not write', async () => {
  await assertWriteGuards(app, r, 'repoCreateFile', repo, priv, async (target, auth) => {
    const res = await create(target, 'guard.txt', { content: b64('g') }, auth);
    return { status: res.response.status, body: res.data ?? res.error };
  });
});

test('404: `branch` does not exist', async () => {
  const res = await create(repo, 'x.txt', { content: b64('x'), branch: 'nope' }, r.writer.auth);
  assert.is(res.response.status, 404);
});

test('422: the path is taken, invalid, or the content is no base64; new_branch exists', async () => {
  const before = await disk.run(dir, ['for-each-ref']);
  const cases: Array<[string, Partial<Body>, RegExp]> = [
    ['docs/a.md', {}, /repository file already exists \[path: docs\/a\.md\]/],
    ['docs', {}, /a directory exists where you’re trying to create a file/],
    ['docs/a.md/inner.txt', {}, /a file exists where you’re trying to create a subdirectory \[path: docs\/a\.md\]/],
    ['link', {}, /symbolic link/],
    ['.git/config', {}, /malformed path component/],
    ['a/.GIT/x', {}, /malformed path component/],
    ['new.txt', { content: 'not base64!' }, /base64/],
    ['new.txt', { new_branch: 'dev' }, /branch already exists \[name: dev\]/],
    ['new.txt', { branch: 'a..b' }, /\[branch\]/],
  ];
  for (const [path, body, pattern] of cases) {
    const res = await create(repo, path, { content: b64('x'), ...body }, r.writer.auth);
    assert.is(res.response.status, 422, `${path} ${JSON.stringify(body)}`);
    assertSpec('repoCreateFile', res);
    assert.match(messageOf(res.error), pattern, path);
  }
  const missing = await raw(app, 'POST', `/repos/${repo.full_name}/contents/m.txt`, { body: '{}', authorization: r.writer.auth });
  assert.is(missing.response.status, 422);
  assertSpecAnswer('repoCreateFile', 422, missing.body);
  assert.is(await disk.run(dir, ['for-each-ref']), before, 'no ref moved');
});

test('a path with `..` stays inside the tree (Gitea cleans it)', async () => {
  const res = await raw(app, 'POST', `/repos/${repo.full_name}/contents/up%2F..%2F..%2Fclean.txt`, { body: JSON.stringify({ content: b64('c') }), authorization: r.writer.auth });
  assert.is(res.response.status, 201, res.text);
  assert.is(res.body.content.path, 'clean.txt');
});

test.run();
