import { test } from 'uvu';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createTeam, publicizeMember, type Actor, type Team } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

type User = { login: string };

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;
/** A public team with three members, one of whom made the membership public. */
let team: Team;
let people: Actor[];

test.before(async () => {
  app = await startApp();
  [w, admin] = await Promise.all([peopleWorld(app), adminActor(app)]);
  people = await Promise.all([actor(app), actor(app), actor(app)]);
  team = await createTeam(app, w.owner, w.org.name, { visibility: 'public' });
  for (const p of people) await addTeamMember(app, w.owner, team.id, p.username);
  await publicizeMember(app, w.org.id, people[0]!.id);
});
test.after(async () => {
  await app.close();
});

const list = (id: number, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/teams/{id}/members', { params: { path: { id }, query } });
const byLogin = (u: User) => u.login;

test('200: members of the organization and site admins see every member, by name', async () => {
  const all = people.map((p) => p.username).sort();
  for (const [label, a] of [['owner', w.owner], ['org member', w.member], ['team member', people[1]!], ['admin', admin]] as const) {
    expectList<User>('orgListTeamMembers', await list(team.id, a.auth), byLogin, all, label);
  }
  expectList<User>('orgListTeamMembers', await list(w.owners.id, w.owner.auth), byLogin, [w.owner.username], 'Owners');
});

test('200: others see only the members whose membership is public', async () => {
  expectList<User>('orgListTeamMembers', await list(team.id, w.outsider.auth), byLogin, [people[0]!.username], 'outsider');
});

test('200: a member added is listed at once; pagination', async () => {
  const extra = await actor(app);
  await addTeamMember(app, w.owner, w.readers.id, extra.username);
  expectList<User>('orgListTeamMembers', await list(w.readers.id, w.owner.auth), byLogin, [w.member.username, extra.username].sort(), 'readers');
  expectFirstPageOfTwo(await list(team.id, w.owner.auth, { limit: 2 }), 3);
});

test('404: a team the caller may not see, an unknown team', async () => {
  // readers is private: its members and the owners only.
  await expectStatus('orgListTeamMembers', await list(w.readers.id, w.outsider.auth), 404, 'private team to an outsider');
  await expectStatus('orgListTeamMembers', await list(w.readers.id, w.creator.auth), 404, 'private team to another member');
  await expectStatus('orgListTeamMembers', await list(999999, admin.auth), 404, 'unknown');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgListTeamMembers', await list(team.id), 401, 'anonymous');
  await expect401('orgListTeamMembers', (auth) => list(team.id, auth));
});

test.run();
