import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { addFile, patch } from '../../helpers/pulls.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
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

const get = (repo: Repository, sha: string, diffType: 'diff' | 'patch', auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/git/commits/{sha}.{diffType}', { params: { path: { ...pathOf(repo), sha, diffType } }, parseAs: 'text' });

test('200: a commit as a diff against its parent and as a format-patch mail (full or abbreviated id); a root commit', async () => {
  const repo = await repoFor(app, r);
  const sha = await patch(app, repo, r.writer, addFile('hello.txt', ['hello']));
  const diff = await get(repo, sha, 'diff');
  assert.is(diff.response.status, 200);
  assertSpec('repoDownloadCommitDiffOrPatch', diff);
  assert.match(diff.response.headers.get('content-type') ?? '', /^text\/plain/);
  assert.ok(diff.data!.startsWith('diff --git a/hello.txt b/hello.txt\nnew file mode 100644\n'), diff.data!);
  assert.ok(diff.data!.includes('+hello\n'));
  assert.not.ok(diff.data!.includes('README'), 'only this commit');
  const mail = await get(repo, sha.slice(0, 7), 'patch');
  assert.is(mail.response.status, 200);
  assert.ok(mail.data!.startsWith(`From ${sha} `), mail.data!);
  assert.match(mail.data!, /\nSubject: \[PATCH\] /);
  assert.ok(mail.data!.includes('diff --git a/hello.txt b/hello.txt'));
  const root = (await disk.run(dirOf(app, repo), ['rev-list', '--max-parents=0', 'main'])).trim();
  const first = await get(repo, root, 'diff');
  assert.is(first.response.status, 200);
  assert.ok(first.data!.includes('diff --git a/README.md b/README.md\nnew file mode 100644'), first.data!);
  assert.ok((await get(repo, root, 'patch')).data!.includes(`From ${root} `));
});

test('404: no such commit, a branch name, a private repository to an outsider (200 to a reader)', async () => {
  const repo = await repoFor(app, r, { private: true });
  const sha = await patch(app, repo, r.writer, addFile('x.txt', ['x']));
  for (const [name, auth] of [['0'.repeat(40), r.owner.auth], ['main', r.owner.auth], [sha, r.outsider.auth], [sha, undefined]] as const) {
    const res = await get(repo, name, 'diff', auth);
    assert.is(res.response.status, 404, `${name} ${auth ? 'signed in' : 'anonymous'}`);
    assertSpec('repoDownloadCommitDiffOrPatch', res);
  }
  assert.is((await get(repo, sha, 'patch', r.reader.auth)).response.status, 200);
});

test.run();
