import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createTeam, type Actor, type Team } from '../../helpers/orgs.js';
import { expect401, expectStatus, names, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;
/** A public team given both repositories, with one member. */
let team: Team;
let user: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin, user] = await Promise.all([peopleWorld(app), adminActor(app), actor(app)]);
  team = await createTeam(app, w.owner, w.org.name, { visibility: 'public', units_map: { 'repo.code': 'write' } });
  await addTeamMember(app, w.owner, team.id, user.username);
  for (const r of [w.open, w.secret]) {
    const res = await app.client(w.owner.auth).PUT('/teams/{id}/repos/{org}/{repo}', { params: { path: { id: team.id, org: w.org.name, repo: r.name } } });
    assert.is(res.response.status, 204);
  }
});
test.after(async () => {
  await app.close();
});

const remove = (id: number, repo: string, auth?: string, org = w.org.name) =>
  app.client(auth).DELETE('/teams/{id}/repos/{org}/{repo}', { params: { path: { id, org, repo } } });
const teamRepos = async (id: number) => names((await app.client(w.owner.auth).GET('/teams/{id}/repos', { params: { path: { id } } })).data!);
const secretStatus = async (a: Actor) =>
  (await app.client(a.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: w.secret.name } } })).response.status;

test('204: an owner takes a repository from a team; its members lose the access at once; again changes nothing', async () => {
  assert.is(await secretStatus(user), 200);
  await expectStatus('orgRemoveTeamRepository', await remove(team.id, w.secret.name, w.owner.auth), 204, 'owner');
  assert.is(await secretStatus(user), 404);
  assert.equal(await teamRepos(team.id), [w.open.name]);
  await expectStatus('orgRemoveTeamRepository', await remove(team.id, w.secret.name, w.owner.auth), 204, 'again');
  const repo = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: w.secret.name } } });
  assert.is(repo.response.status, 200, 'the repository stays');
});

test('204: a site admin; a team with every repository keeps them', async () => {
  await expectStatus('orgRemoveTeamRepository', await remove(team.id, w.open.name, admin.auth), 204, 'admin');
  assert.equal(await teamRepos(team.id), []);
  const all = await createTeam(app, w.owner, w.org.name, { includes_all_repositories: true });
  await expectStatus('orgRemoveTeamRepository', await remove(all.id, w.open.name, w.owner.auth), 204, 'every repository');
  assert.equal((await teamRepos(all.id)).length, 2);
});

test('403: a team member without admin access to the repository', async () => {
  const res = await remove(w.readers.id, w.open.name, w.member.auth);
  await expectStatus('orgRemoveTeamRepository', res, 403, 'reader');
  assert.is((res.error as { message: string }).message, 'Must have admin-level access to the repository');
});

test('404: an unknown repository, a team the caller cannot see', async () => {
  await expectStatus('orgRemoveTeamRepository', await remove(team.id, 'nope', w.owner.auth), 404, 'unknown repository');
  await expectStatus('orgRemoveTeamRepository', await remove(w.readers.id, w.open.name, w.outsider.auth), 404, 'private team');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgRemoveTeamRepository', await remove(team.id, w.open.name), 401, 'anonymous');
  await expect401('orgRemoveTeamRepository', (auth) => remove(team.id, w.open.name, auth));
});

test.run();
