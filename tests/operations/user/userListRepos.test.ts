import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, type Actor, type Organization, type Repository } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus, names } from '../../helpers/people.js';
import { addCollaborator, userRepo } from '../../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let collaborator: Actor;
let outsider: Actor;
let restricted: Actor;
let admin: Actor;
let repos: Repository[];
let org: Organization;

test.before(async () => {
  app = await startApp();
  [owner, collaborator, outsider, restricted, admin] = await Promise.all([actor(app), actor(app), actor(app), actor(app, { restricted: true }), adminActor(app)]);
  // Created in this order: Gitea lists by id.
  repos = [await userRepo(app, owner, { name: 'zeta' }), await userRepo(app, owner, { name: 'alpha', private: true }), await userRepo(app, owner, { name: 'mid' })];
  await addCollaborator(app, repos[1]!, collaborator, 'read');
  org = await createOrg(app, owner);
});
test.after(async () => {
  await app.close();
});

const list = (username: string, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/users/{username}/repos', { params: { path: { username }, query } });

test('200: the owner, a collaborator and site admins see the private repository too, by id', async () => {
  const all = names(repos);
  for (const [label, a] of [['owner', owner], ['collaborator', collaborator], ['admin', admin]] as const) {
    expectList<Repository>('userListRepos', await list(owner.username, a.auth), (r) => r.name, all, label);
  }
});

test('200: anonymous callers, outsiders and restricted users see the public ones only', async () => {
  const pub = [repos[0]!.name, repos[2]!.name];
  expectList<Repository>('userListRepos', await list(owner.username), (r) => r.name, pub, 'anonymous');
  expectList<Repository>('userListRepos', await list(owner.username, outsider.auth), (r) => r.name, pub, 'outsider');
  // Restricted users see only what they are given explicitly.
  expectList<Repository>('userListRepos', await list(owner.username, restricted.auth), (r) => r.name, [], 'restricted');
});

test('200: the same Repository objects as GET /repos/{owner}/{repo}, permissions included', async () => {
  const items = expectList<Repository>('userListRepos', await list(owner.username, collaborator.auth), (r) => r.name, names(repos), 'collaborator');
  for (const item of items) {
    const one = await app.client(collaborator.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: item.name } } });
    assert.equal(item, one.data, item.name);
  }
  assert.equal(items[1]!.permissions, { admin: false, push: false, pull: true });
});

test('200: pagination with X-Total-Count and Link', async () => {
  expectFirstPageOfTwo(await list(owner.username, owner.auth, { limit: 2 }), 3);
  const second = await list(owner.username, owner.auth, { limit: 2, page: 2 });
  assert.equal(names(second.data!), [repos[2]!.name]);
});

test('200: a user with no repository has an empty list', async () => {
  expectList<Repository>('userListRepos', await list(outsider.username, owner.auth), (r) => r.name, [], 'empty');
});

test('404: an unknown user, an organization, a private user to others', async () => {
  await expectStatus('userListRepos', await list('nobody-here', owner.auth), 404, 'unknown');
  await expectStatus('userListRepos', await list(org.name, owner.auth), 404, 'organization');
  const hidden = await actor(app, { visibility: 'private' });
  await expectStatus('userListRepos', await list(hidden.username, owner.auth), 404, 'private user');
  expectList<Repository>('userListRepos', await list(hidden.username, hidden.auth), (r) => r.name, [], 'private user to themself');
});

test('401: wrong credentials', async () => {
  await expect401('userListRepos', (auth) => list(owner.username, auth));
});

test.run();
