import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createTeam, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin] = await Promise.all([peopleWorld(app), adminActor(app)]);
});
test.after(async () => {
  await app.close();
});

const del = (id: number, auth?: string) => app.client(auth).DELETE('/teams/{id}', { params: { path: { id } } });
const secretStatus = async (a: Actor) =>
  (await app.client(a.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: w.secret.name } } })).response.status;

test('204: an owner deletes a team; its members lose its access at once and stay in the organization', async () => {
  const user = await actor(app);
  const team = await createTeam(app, w.owner, w.org.name, { includes_all_repositories: true });
  await addTeamMember(app, w.owner, team.id, user.username);
  assert.is(await secretStatus(user), 200);
  await expectStatus('orgDeleteTeam', await del(team.id, w.owner.auth), 204, 'owner');
  assert.is(await secretStatus(user), 404);
  assert.is((await app.client(w.owner.auth).GET('/teams/{id}', { params: { path: { id: team.id } } })).response.status, 404);
  const members = await app.client(w.owner.auth).GET('/orgs/{org}/members', { params: { path: { org: w.org.name } } });
  assert.ok(members.data!.some((u) => u.login === user.username), 'still a member');
  await expectStatus('orgDeleteTeam', await del(team.id, w.owner.auth), 404, 'gone');
});

test('204: a site admin deletes a team', async () => {
  const team = await createTeam(app, w.owner, w.org.name);
  await expectStatus('orgDeleteTeam', await del(team.id, admin.auth), 204, 'admin');
});

test('422: the Owners team cannot be deleted', async () => {
  const res = await del(w.owners.id, w.owner.auth);
  await expectStatus('orgDeleteTeam', res, 422, 'Owners');
  assert.is((res.error as { message: string }).message, 'the Owners team cannot be deleted');
  assert.is(await secretStatus(w.owner), 200);
});

test('403: members who are not owners', async () => {
  const res = await del(w.readers.id, w.member.auth);
  await expectStatus('orgDeleteTeam', res, 403, 'team member');
  assert.is((res.error as { message: string }).message, 'Must be an organization owner');
});

test('404: a team the caller cannot see, an unknown team', async () => {
  await expectStatus('orgDeleteTeam', await del(w.readers.id, w.outsider.auth), 404, 'private team');
  await expectStatus('orgDeleteTeam', await del(999999, admin.auth), 404, 'unknown');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgDeleteTeam', await del(w.readers.id), 401, 'anonymous');
  await expect401('orgDeleteTeam', (auth) => del(w.readers.id, auth));
});

test.run();
