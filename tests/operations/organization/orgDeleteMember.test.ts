import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createOrg, createTeam, type Actor } from '../../helpers/orgs.js';
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

const remove = (org: string, username: string, auth?: string) =>
  app.client(auth).DELETE('/orgs/{org}/members/{username}', { params: { path: { org, username } } });
const isMember = async (org: string, username: string) =>
  (await app.client(admin.auth).GET('/users/{username}/orgs', { params: { path: { username } } })).data!.some((o) => o.name === org);
const secretStatus = async (a: Actor) =>
  (await app.client(a.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: w.secret.name } } })).response.status;

test('204: an owner removes a member from every team and the organization; access goes at once', async () => {
  const user = await actor(app);
  const all = await createTeam(app, w.owner, w.org.name, { includes_all_repositories: true });
  await addTeamMember(app, w.owner, all.id, user.username);
  await addTeamMember(app, w.owner, w.readers.id, user.username);
  assert.is(await secretStatus(user), 200);
  await expectStatus('orgDeleteMember', await remove(w.org.name, user.username, w.owner.auth), 204, 'owner');
  assert.is(await isMember(w.org.name, user.username), false);
  assert.is(await secretStatus(user), 404, 'the private repository is out of reach');
  const members = await app.client(w.owner.auth).GET('/teams/{id}/members', { params: { path: { id: all.id } } });
  assert.equal(members.data, [], 'no longer in the team');
});

test('204: a site admin removes a member', async () => {
  await expectStatus('orgDeleteMember', await remove(w.org.name, w.creator.username, admin.auth), 204, 'admin');
  assert.is(await isMember(w.org.name, w.creator.username), false);
});

test('422: the last owner stays; with a second owner, one may go', async () => {
  const res = await remove(w.org.name, w.owner.username, w.owner.auth);
  await expectStatus('orgDeleteMember', res, 422, 'last owner');
  assert.is((res.error as { message: string }).message, 'user is the last member of owner team');
  const second = await actor(app);
  await addTeamMember(app, w.owner, w.owners.id, second.username);
  await expectStatus('orgDeleteMember', await remove(w.org.name, w.owner.username, second.auth), 204, 'one of two owners');
  assert.is(await isMember(w.org.name, w.owner.username), false);
  await expectStatus('orgDeleteMember', await remove(w.org.name, second.username, second.auth), 422, 'the last again');
});

test('403: a member who is not an owner', async () => {
  const org = await createOrg(app, w.outsider);
  const team = await createTeam(app, w.outsider, org.name);
  await addTeamMember(app, w.outsider, team.id, w.member.username);
  const res = await remove(org.name, w.outsider.username, w.member.auth);
  await expectStatus('orgDeleteMember', res, 403, 'member');
  assert.is((res.error as { message: string }).message, 'Must be an organization owner');
  assert.is(await isMember(org.name, w.outsider.username), true);
});

test('404: a non-member, an unknown user, an unknown organization', async () => {
  await expectStatus('orgDeleteMember', await remove(w.org.name, w.outsider.username, admin.auth), 404, 'non-member');
  await expectStatus('orgDeleteMember', await remove(w.org.name, 'nobody-here', admin.auth), 404, 'unknown user');
  await expectStatus('orgDeleteMember', await remove('no-such-org', w.member.username, admin.auth), 404, 'unknown org');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgDeleteMember', await remove(w.org.name, w.member.username), 401, 'anonymous');
  await expect401('orgDeleteMember', (auth) => remove(w.org.name, w.member.username, auth));
});

test.run();
