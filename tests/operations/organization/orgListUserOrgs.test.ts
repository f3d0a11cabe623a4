import { test } from 'uvu';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createOrg, createTeam, publicizeMember, type Actor, type Organization } from '../../helpers/orgs.js';
import { expect401, expectList, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let owner: Actor;
let member: Actor;
let outsider: Actor;
let restricted: Actor;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [owner, member, outsider, restricted, admin] = await Promise.all([actor(app), actor(app), actor(app), actor(app, { restricted: true }), adminActor(app)]);
  for (const [name, visibility] of [['a-pub', 'public'], ['b-lim', 'limited'], ['c-priv', 'private'], ['d-hidden', 'public']] as const) {
    const org = await createOrg(app, owner, { username: name, visibility });
    const team = await createTeam(app, owner, name);
    await addTeamMember(app, owner, team.id, member.username);
    // The member's membership is public everywhere but d-hidden.
    if (name !== 'd-hidden') await publicizeMember(app, org.id, member.id);
  }
});
test.after(async () => {
  await app.close();
});

const list = (username: string, auth?: string) => app.client(auth).GET('/users/{username}/orgs', { params: { path: { username } } });
const byName = (o: Organization) => o.name;

test('200: the user and site admins see every membership, by name', async () => {
  const all = ['a-pub', 'b-lim', 'c-priv', 'd-hidden'];
  expectList<Organization>('orgListUserOrgs', await list(member.username, member.auth), byName, all, 'self');
  expectList<Organization>('orgListUserOrgs', await list(member.username, admin.auth), byName, all, 'admin');
});

test('200: others see public memberships of organizations they may see', async () => {
  expectList<Organization>('orgListUserOrgs', await list(member.username), byName, ['a-pub'], 'anonymous');
  expectList<Organization>('orgListUserOrgs', await list(member.username, outsider.auth), byName, ['a-pub', 'b-lim'], 'signed in');
  expectList<Organization>('orgListUserOrgs', await list(member.username, restricted.auth), byName, ['a-pub'], 'restricted');
  // The owner is a member of c-priv, and the member's membership there is public.
  expectList<Organization>('orgListUserOrgs', await list(member.username, owner.auth), byName, ['a-pub', 'b-lim', 'c-priv'], 'member of the private org');
  // The owner's own memberships are concealed (the default).
  expectList<Organization>('orgListUserOrgs', await list(owner.username, member.auth), byName, [], 'concealed');
});

test('404: an unknown user or an organization name', async () => {
  await expectStatus('orgListUserOrgs', await list('nobody-here', admin.auth), 404, 'unknown');
  await expectStatus('orgListUserOrgs', await list('a-pub', admin.auth), 404, 'organization');
});

test('401: wrong credentials', async () => {
  await expect401('orgListUserOrgs', (auth) => list(member.username, auth));
});

test.run();
