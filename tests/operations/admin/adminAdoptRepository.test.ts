// POST /admin/unadopted/{owner}/{repo}: the row of a folder without one, read from the folder, for site admins.
import { mkdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, fresh, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { repoFolder } from '../../helpers/repos.js';
import { adopt, folderExists, listUnadopted, makeFolder } from '../../helpers/unadopted.js';

let app: TestApp;
let admin: Actor;
let owner: Actor;
test.before(async () => {
  app = await startApp();
  admin = await adminActor(app);
  owner = await actor(app);
});
test.after(async () => {
  await app?.close();
});

const repoOf = async (o: string, name: string) => {
  const res = await app.client(admin.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: o, repo: name } } });
  assert.is(res.response.status, 200, `${o}/${name}: ${JSON.stringify(res.error)}`);
  return res.data!;
};

test('204: a private repository whose default branch is HEAD\'s; no longer unadopted; its creation is in the feed', async () => {
  const name = fresh('adopt');
  makeFolder(app, owner.username, name, { branches: ['main', 'develop'], head: 'develop' });
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, owner.username, name), 204, 'adopt');
  const repo = await repoOf(owner.username, name);
  assert.equal([repo.private, repo.empty, repo.default_branch, repo.owner?.login], [true, false, 'develop', owner.username]);
  assert.ok((repo.size ?? 0) > 0, `size ${repo.size}`);
  const branches = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: { owner: owner.username, repo: name } } });
  assert.equal(branches.data!.map((b) => b.name).sort(), ['develop', 'main']);
  const left = await listUnadopted(app, admin.auth, { pattern: owner.username.toLowerCase() });
  assert.equal(left.data, []);
  const feed = await app.client(owner.auth).GET('/repos/{owner}/{repo}/activities/feeds', { params: { path: { owner: owner.username, repo: name } } });
  assert.is(feed.response.status, 200);
  assert.equal(feed.data!.map((a) => a.op_type), ['create_repo']);
  assert.is(feed.data![0]!.act_user?.login, app.admin.username);
});

test('204: without HEAD\'s branch, main, then master, then the first branch; without branches, empty on main', async () => {
  const cases: Array<[string[], string]> = [[['master', 'main', 'x'], 'main'], [['master', 'x'], 'master'], [['b', 'a'], 'a']];
  for (const [branches, expected] of cases) {
    const name = fresh('fallback');
    makeFolder(app, owner.username, name, { branches, head: 'gone' });
    await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, owner.username, name), 204, expected);
    const repo = await repoOf(owner.username, name);
    assert.equal([repo.default_branch, repo.empty], [expected, false], branches.join());
  }
  const name = fresh('empty');
  makeFolder(app, owner.username, name, { head: 'trunk' });
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, owner.username, name), 204, 'empty');
  const repo = await repoOf(owner.username, name);
  assert.equal([repo.default_branch, repo.empty, repo.private], ['main', true, true]);
});

test('204: an organization\'s folder becomes its repository', async () => {
  const org = await createOrg(app, owner);
  makeFolder(app, org.name, 'found', { branches: ['main'] });
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, org.name, 'found'), 204, 'org');
  const repo = await repoOf(org.name, 'found');
  assert.equal([repo.owner?.login, repo.private, repo.default_branch], [org.name, true, 'main']);
  // Its owner's members see it.
  const seen = await app.client(owner.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: org.name, repo: 'found' } } });
  assert.is(seen.response.status, 200);
});

test('404: no such owner, no such folder, a folder that is not git, or a repository of that name exists (as Gitea)', async () => {
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, 'no-such-owner', 'x'), 404, 'owner');
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, owner.username, fresh('nofolder')), 404, 'folder');
  const made = await app.client(owner.auth).POST('/user/repos', { body: { name: 'taken' } });
  assert.is(made.response.status, 201);
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, owner.username, 'taken'), 404, 'row exists');
  assert.is(folderExists(app, owner.username, 'taken'), true);
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, owner.username, 'bad..name'), 404, 'unusable name');
  mkdirSync(repoFolder(app, owner.username, 'notgit'), { recursive: true });
  await expectStatus('adminAdoptRepository', await adopt(app, admin.auth, owner.username, 'notgit'), 404, 'not git');
  const res = await app.client(admin.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: 'notgit' } } });
  assert.is(res.response.status, 404, 'no row made');
});

test('403: not a site administrator, or a token without the admin scope; 401: anonymous, wrong credentials', async () => {
  const name = fresh('guarded');
  makeFolder(app, owner.username, name);
  await expectStatus('adminAdoptRepository', await adopt(app, owner.auth, owner.username, name), 403, 'user');
  await expectStatus('adminAdoptRepository', await adopt(app, await app.token(app.admin, ['write:repository']), owner.username, name), 403, 'scope');
  await expectStatus('adminAdoptRepository', await adopt(app, undefined, owner.username, name), 401, 'anonymous');
  await expect401('adminAdoptRepository', (auth) => adopt(app, auth, owner.username, name));
  const res = await app.client(admin.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: name } } });
  assert.is(res.response.status, 404, 'still no row');
});

test.run();
