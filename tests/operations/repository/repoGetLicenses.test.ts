import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { license } from '../../../src/templates/index.js';
import { repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { commitFiles, statsSettled } from '../../helpers/repoStats.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp({}, { repoStats: true });
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

const get = (target: Pick<Repository, 'full_name'>, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/licenses', { params: { path: pathOf(target as Repository) } });

/** A repository with `files` pushed (through the contents API) and its licenses computed by the statistics job. */
async function withFiles(files: Record<string, string>, body: Parameters<typeof repoFor>[2] = {}): Promise<Repository> {
  const repo = await repoFor(app, r, body);
  await statsSettled(app, repo.id, await commitFiles(app, repo, r.owner, files));
  return repo;
}

const mitMarkdown = `# The MIT License (MIT)\n\n${license('MIT', 'Jane Doe', 2019).split('\n').slice(2).join('\n').replace('THE SOFTWARE IS PROVIDED', '**THE SOFTWARE IS PROVIDED**')}`;

test('200: the MIT license of a repository created with it, in the JSON too', async () => {
  const repo = await repoFor(app, r, { license: 'MIT' });
  const res = await get(repo);
  assert.is(res.response.status, 200);
  assertSpec('repoGetLicenses', res);
  assert.equal(res.data, ['MIT']);
  assert.equal(repo.licenses, ['MIT']);
  await statsSettled(app, repo.id);
  assert.equal((await get(repo)).data, ['MIT'], 'the LICENSE file the template wrote is detected');
});

test('200: a LICENSE pushed later shows in the answer and in the repository JSON, a removed one goes', async () => {
  const repo = await repoFor(app, r);
  await statsSettled(app, repo.id);
  assert.equal((await get(repo)).data, []);
  await statsSettled(app, repo.id, await commitFiles(app, repo, r.owner, { LICENSE: license('Apache-2.0', 'Jane Doe', 2020) }));
  assert.equal((await get(repo)).data, ['Apache-2.0']);
  const json = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } });
  assert.equal(json.data!.licenses, ['Apache-2.0']);
  await statsSettled(app, repo.id, await commitFiles(app, repo, r.owner, { LICENSE: null }));
  assert.equal((await get(repo)).data, []);
  const after = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } });
  assert.equal(after.data!.licenses, []);
});

test('200: MIT and Apache files at the root, sorted, whatever their names and markup', async () => {
  const repo = await withFiles({
    'LICENSE-APACHE': license('Apache-2.0', 'Jane Doe', 2020),
    'license.md': mitMarkdown,
    'COPYING.txt': license('MIT', 'Someone Else', 2001),
  });
  const res = await get(repo);
  assert.is(res.response.status, 200);
  assertSpec('repoGetLicenses', res);
  assert.equal(res.data, ['Apache-2.0', 'MIT']);
});

test('200: an Apache-2.0 LICENSE alone; a tie between texts goes to the current identifier', async () => {
  assert.equal((await get(await withFiles({ LICENSE: license('Apache-2.0', 'Jane Doe') }))).data, ['Apache-2.0']);
  assert.equal((await get(await withFiles({ LICENCE: license('GPL-3.0-or-later', 'Jane Doe') }))).data, ['GPL-3.0-only']);
});

test('200 []: no license file, a license file that is not a license, one in a folder or on another branch', async () => {
  const plain = await repoFor(app, r);
  await statsSettled(app, plain.id);
  assert.equal((await get(plain)).data, []);
  const notOne = await withFiles({ LICENSE: 'All rights reserved. Ask me before you use any of this.\n' });
  assert.equal((await get(notOne)).data, []);
  const nested = await withFiles({ 'docs/LICENSE': license('MIT', 'Jane Doe'), 'licenses/MIT.txt': license('MIT', 'Jane Doe') });
  assert.equal((await get(nested)).data, []);
  const branch = await repoFor(app, r);
  await commitFiles(app, branch, r.owner, { LICENSE: license('MIT', 'Jane Doe') }, 'other');
  await statsSettled(app, branch.id);
  assert.equal((await get(branch)).data, []);
  // A truncated MIT text (the permission paragraph gone) is not close enough.
  const cut = await withFiles({ LICENSE: license('MIT', 'Jane Doe').split('\n\n').filter((p) => !p.startsWith('Permission')).join('\n\n') });
  assert.equal((await get(cut)).data, []);
});

test('200 []: an empty repository', async () => {
  const empty = await repoFor(app, r, { auto_init: false });
  await statsSettled(app, empty.id);
  const res = await get(empty);
  assert.is(res.response.status, 200);
  assertSpec('repoGetLicenses', res);
  assert.equal(res.data, []);
});

test('200: anyone for a public repository; readers of a private one; 404 for outsiders and anonymous callers', async () => {
  const pub = await withFiles({ LICENSE: license('MIT', 'Jane Doe') });
  for (const auth of [r.outsider.auth, undefined]) assert.equal((await get(pub, auth)).data, ['MIT']);
  const priv = await withFiles({ LICENSE: license('MIT', 'Jane Doe') }, { private: true });
  for (const who of [r.owner, r.writer, r.reader, r.admin]) {
    const res = await get(priv, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.equal(res.data, ['MIT']);
  }
  for (const auth of [r.outsider.auth, undefined]) {
    const res = await get(priv, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoGetLicenses', res);
  }
});

test('404: an unknown repository', async () => {
  const res = await get({ full_name: `${r.owner.username}/no-such-repository` });
  assert.is(res.response.status, 404);
  assertSpec('repoGetLicenses', res);
});

test('403: a token without the repository scope', async () => {
  const repo = await repoFor(app, r);
  const res = await get(repo, await wrongScope(app, r.owner, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetLicenses', res);
});

test.run();
