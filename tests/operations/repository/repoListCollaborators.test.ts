import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus } from '../../helpers/people.js';
import { addCollaborator, pathOf, userRepo, type Repository } from '../../helpers/repos.js';

type User = { login: string; email: string };

let app: TestApp;
let owner: Actor;
let people: Actor[];
let outsider: Actor;
let admin: Actor;
let secret: Repository;
let open: Repository;

test.before(async () => {
  app = await startApp();
  [owner, outsider, admin, ...people] = await Promise.all([actor(app), actor(app), adminActor(app), actor(app), actor(app), actor(app)]);
  [secret, open] = await Promise.all([userRepo(app, owner, { private: true }), userRepo(app, owner)]);
  for (const [i, p] of people.entries()) await addCollaborator(app, secret, p, (['read', 'write', 'admin'] as const)[i]!);
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repository, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/collaborators', { params: { path: pathOf(repo), query } });
const logins = () => people.map((p) => p.username).sort();

test('200: the collaborators, by name, to the owner, each collaborator and site admins', async () => {
  for (const [label, a] of [['owner', owner], ['read collaborator', people[0]!], ['admin', admin]] as const) {
    expectList<User>('repoListCollaborators', await list(secret, a.auth), (u) => u.login, logins(), label);
  }
  const items = expectList<User>('repoListCollaborators', await list(secret, people[0]!.auth), (u) => u.login, logins(), 'reader');
  const other = items.find((u) => u.login === people[1]!.username)!;
  const single = await app.client(people[0]!.auth).GET('/users/{username}', { params: { path: { username: people[1]!.username } } });
  assert.equal(other, single.data, 'the same User as GET /users/{username}');
});

test('200: a public repository without collaborators, to anyone signed in', async () => {
  expectList<User>('repoListCollaborators', await list(open, outsider.auth), (u) => u.login, [], 'outsider');
});

test('200: a removed collaborator is gone at once', async () => {
  const extra = await actor(app);
  await addCollaborator(app, open, extra, 'read');
  expectList<User>('repoListCollaborators', await list(open, outsider.auth), (u) => u.login, [extra.username], 'added');
  const del = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { ...pathOf(open), collaborator: extra.username } } });
  assert.is(del.response.status, 204);
  expectList<User>('repoListCollaborators', await list(open, outsider.auth), (u) => u.login, [], 'removed');
});

test('200: pagination with X-Total-Count and Link', async () => {
  expectFirstPageOfTwo(await list(secret, owner.auth, { limit: 2 }), 3);
});

test('404: a private repository to outsiders, an unknown repository', async () => {
  await expectStatus('repoListCollaborators', await list(secret, outsider.auth), 404, 'outsider');
  await expectStatus('repoListCollaborators', await list({ ...secret, full_name: `${owner.username}/nope` }, owner.auth), 404, 'unknown');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('repoListCollaborators', await list(open), 401, 'anonymous');
  await expect401('repoListCollaborators', (auth) => list(open, auth));
});

test.run();
