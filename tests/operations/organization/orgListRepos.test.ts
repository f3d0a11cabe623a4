import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createTeam, type Actor, type Repository } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus, names, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let pub: PeopleWorld;
let priv: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [pub, admin] = await Promise.all([peopleWorld(app, 'public'), adminActor(app)]);
  priv = await peopleWorld(app, 'private', pub);
});
test.after(async () => {
  await app.close();
});

const list = (org: string, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/orgs/{org}/repos', { params: { path: { org }, query } });
const byName = (r: Repository) => r.name;

test('200: owners and site admins see every repository, by id, with their permissions', async () => {
  const both = [pub.open.name, pub.secret.name];
  const items = expectList<Repository>('orgListRepos', await list(pub.org.name, pub.owner.auth), byName, both, 'owner');
  assert.equal(items.map((r) => r.permissions), [{ admin: true, push: true, pull: true }, { admin: true, push: true, pull: true }]);
  expectList<Repository>('orgListRepos', await list(pub.org.name, admin.auth), byName, both, 'admin');
  const one = await app.client(pub.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: pub.org.name, repo: pub.secret.name } } });
  assert.equal(items[1], one.data, 'the same Repository as GET /repos/{owner}/{repo}');
});

test('200: others see the public repositories only, unless a team gives them more', async () => {
  expectList<Repository>('orgListRepos', await list(pub.org.name), byName, [pub.open.name], 'anonymous');
  expectList<Repository>('orgListRepos', await list(pub.org.name, pub.outsider.auth), byName, [pub.open.name], 'outsider');
  const items = expectList<Repository>('orgListRepos', await list(pub.org.name, pub.member.auth), byName, [pub.open.name], 'member of a team without repositories');
  assert.equal(items[0]!.permissions, { admin: false, push: false, pull: true });
});

test('200: a team with every repository shows the private one at once', async () => {
  const user = await actor(app);
  const team = await createTeam(app, pub.owner, pub.org.name, { includes_all_repositories: true, units_map: { 'repo.code': 'write' } });
  expectList<Repository>('orgListRepos', await list(pub.org.name, user.auth), byName, [pub.open.name], 'before');
  await addTeamMember(app, pub.owner, team.id, user.username);
  const items = expectList<Repository>('orgListRepos', await list(pub.org.name, user.auth), byName, [pub.open.name, pub.secret.name], 'after');
  assert.equal(items[1]!.permissions, { admin: false, push: true, pull: true });
});

test('200: pagination with X-Total-Count and Link', async () => {
  // A third repository through the creators team.
  const r = await app.client(pub.creator.auth).POST('/orgs/{org}/repos', { params: { path: { org: pub.org.name } }, body: { name: 'third' } });
  assert.is(r.response.status, 201);
  expectFirstPageOfTwo(await list(pub.org.name, pub.owner.auth, { limit: 2 }), 3);
  const second = await list(pub.org.name, pub.owner.auth, { limit: 2, page: 2 });
  assert.equal(names(second.data!), ['third']);
});

test('404: a private organization to non-members, an unknown organization, a user', async () => {
  await expectStatus('orgListRepos', await list(priv.org.name), 404, 'anonymous');
  await expectStatus('orgListRepos', await list(priv.org.name, priv.outsider.auth), 404, 'outsider');
  expectList<Repository>('orgListRepos', await list(priv.org.name, priv.member.auth), byName, [priv.open.name], 'member of the private org');
  await expectStatus('orgListRepos', await list('no-such-org', admin.auth), 404, 'unknown');
  await expectStatus('orgListRepos', await list(pub.owner.username, admin.auth), 404, 'a user');
});

test('401: wrong credentials', async () => {
  await expect401('orgListRepos', (auth) => list(pub.org.name, auth));
});

test.run();
