import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createOrg, createTeam, type Actor, type Team } from '../../helpers/orgs.js';
import { expect401, expectStatus, names, peopleWorld, type PeopleWorld } from '../../helpers/people.js';
import { addCollaborator, userRepo } from '../../helpers/repos.js';

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;
/** An admin team of the org without repositories, with one member. */
let admins: Team;
let teamAdmin: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin, teamAdmin] = await Promise.all([peopleWorld(app), adminActor(app), actor(app)]);
  admins = await createTeam(app, w.owner, w.org.name, { name: 'admins', permission: 'admin', visibility: 'limited' });
  await addTeamMember(app, w.owner, admins.id, teamAdmin.username);
});
test.after(async () => {
  await app.close();
});

const add = (id: number, repo: string, auth?: string, org = w.org.name) =>
  app.client(auth).PUT('/teams/{id}/repos/{org}/{repo}', { params: { path: { id, org, repo } } });
const teamRepos = async (id: number) => names((await app.client(w.owner.auth).GET('/teams/{id}/repos', { params: { path: { id } } })).data!);
const perms = async (a: Actor, repo: string) =>
  (await app.client(a.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo } } })).data?.permissions;

test('204: an owner gives a team a repository; its members get the team access at once; again changes nothing', async () => {
  assert.is(await perms(w.member, w.secret.name), undefined);
  await expectStatus('orgAddTeamRepository', await add(w.readers.id, w.secret.name, w.owner.auth), 204, 'owner');
  assert.equal(await teamRepos(w.readers.id), [w.secret.name]);
  assert.equal(await perms(w.member, w.secret.name), { admin: false, push: false, pull: true });
  await expectStatus('orgAddTeamRepository', await add(w.readers.id, w.secret.name.toUpperCase(), w.owner.auth, w.org.name.toUpperCase()), 204, 'again, other case');
  assert.equal(await teamRepos(w.readers.id), [w.secret.name]);
});

test('204: a team member with admin access to the repository; a site admin', async () => {
  // teamAdmin has admin on the repository through a collaboration, not yet through the team.
  await addCollaborator(app, w.open, teamAdmin, 'admin');
  await expectStatus('orgAddTeamRepository', await add(admins.id, w.open.name, teamAdmin.auth), 204, 'team member, repository admin');
  await expectStatus('orgAddTeamRepository', await add(admins.id, w.secret.name, admin.auth), 204, 'site admin');
  assert.equal(await teamRepos(admins.id), [w.open.name, w.secret.name]);
  assert.equal(await perms(teamAdmin, w.secret.name), { admin: true, push: true, pull: true });
});

test('403: a team member without admin access; someone outside the team', async () => {
  const noAdmin = await add(w.readers.id, w.open.name, w.member.auth);
  await expectStatus('orgAddTeamRepository', noAdmin, 403, 'reader');
  assert.is((noAdmin.error as { message: string }).message, 'Must have admin-level access to the repository');
  // A public team, which teamAdmin may see but is not in.
  const pub = await createTeam(app, w.owner, w.org.name, { visibility: 'public' });
  const outside = await add(pub.id, w.open.name, teamAdmin.auth);
  await expectStatus('orgAddTeamRepository', outside, 403, 'not in the team');
  assert.is((outside.error as { message: string }).message, 'Must be a team member');
  assert.equal(await teamRepos(pub.id), []);
});

test('404: another organization, an unknown or invisible repository, a team the caller cannot see', async () => {
  const other = await createOrg(app, w.owner);
  await expectStatus('orgAddTeamRepository', await add(w.readers.id, w.open.name, w.owner.auth, other.name), 404, 'another org');
  const mine = await userRepo(app, w.owner);
  await expectStatus('orgAddTeamRepository', await add(w.readers.id, mine.name, w.owner.auth, w.owner.username), 404, 'a user repository');
  await expectStatus('orgAddTeamRepository', await add(w.readers.id, 'nope', w.owner.auth), 404, 'unknown repository');
  await expectStatus('orgAddTeamRepository', await add(w.readers.id, w.open.name, w.outsider.auth), 404, 'private team');
  await expectStatus('orgAddTeamRepository', await add(999999, w.open.name, admin.auth), 404, 'unknown team');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgAddTeamRepository', await add(w.readers.id, w.open.name), 401, 'anonymous');
  await expect401('orgAddTeamRepository', (auth) => add(w.readers.id, w.open.name, auth));
});

test.run();
