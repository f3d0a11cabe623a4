import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addTeamMember, createTeam } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

type Team = { name: string; organization: { name: string } | null };

let app: TestApp;
let pub: PeopleWorld;
let priv: PeopleWorld;

test.before(async () => {
  app = await startApp();
  pub = await peopleWorld(app, 'public');
  priv = await peopleWorld(app, 'private', pub);
});
test.after(async () => {
  await app.close();
});

const list = (auth?: string, query: { page?: number; limit?: number } = {}) => app.client(auth).GET('/user/teams', { params: { query } });
const key = (t: Team) => `${t.organization?.name}/${t.name}`;

test('200: every team of the caller, with its organization, by organization then name', async () => {
  const orgsInOrder = [pub.org.name, priv.org.name].sort();
  expectList<Team>('userListTeams', await list(pub.member.auth), key, orgsInOrder.map((o) => `${o}/readers`), 'member');
  expectList<Team>('userListTeams', await list(pub.owner.auth), key, orgsInOrder.map((o) => `${o}/Owners`), 'owner');
  expectList<Team>('userListTeams', await list(pub.outsider.auth), key, [], 'outsider');
  const res = await list(pub.creator.auth);
  assert.is(res.data![0]!.name, 'creators');
  assert.ok(res.data![0]!.organization, 'organization is filled');
});

test('200: pages', async () => {
  const extra = await createTeam(app, pub.owner, pub.org.name, { name: 'extra' });
  await addTeamMember(app, pub.owner, extra.id, pub.member.username);
  expectFirstPageOfTwo(await list(pub.member.auth, { limit: 2 }), 3);
});

test('401 anonymous and wrong credentials; 403 token without the user scope', async () => {
  await expectStatus('userListTeams', await list(), 401, 'anonymous');
  await expect401('userListTeams', (auth) => list(auth));
  await expectStatus('userListTeams', await list(await app.token(pub.member, ['read:organization'])), 403, 'scope');
});

test.run();
