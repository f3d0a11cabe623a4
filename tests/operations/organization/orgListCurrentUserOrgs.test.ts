import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, createOrg, createTeam, type Actor, type Organization } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let owner: Actor;
let member: Actor;
let orgs: Organization[];

test.before(async () => {
  app = await startApp();
  [owner, member] = await Promise.all([actor(app), actor(app)]);
  orgs = [
    await createOrg(app, owner, { username: 'b-public' }),
    await createOrg(app, owner, { username: 'a-private', visibility: 'private' }),
    await createOrg(app, owner, { username: 'c-limited', visibility: 'limited' }),
  ];
  const team = await createTeam(app, owner, 'a-private');
  await addTeamMember(app, owner, team.id, member.username);
});
test.after(async () => {
  await app.close();
});

const list = (auth?: string, query: { page?: number; limit?: number } = {}) => app.client(auth).GET('/user/orgs', { params: { query } });
const byName = (o: Organization) => o.name;

test('200: every organization of the caller, by name, concealed memberships and private ones included', async () => {
  const items = expectList<Organization>('orgListCurrentUserOrgs', await list(owner.auth), byName, ['a-private', 'b-public', 'c-limited'], 'owner');
  const one = await app.client(owner.auth).GET('/orgs/{org}', { params: { path: { org: 'a-private' } } });
  assert.equal(items[0], one.data, 'the same Organization as GET /orgs/{org}');
  expectList<Organization>('orgListCurrentUserOrgs', await list(member.auth), byName, ['a-private'], 'member of one');
});

test('200: a user in no organization has an empty list; membership changes show at once', async () => {
  const user = await actor(app);
  expectList<Organization>('orgListCurrentUserOrgs', await list(user.auth), byName, [], 'none');
  const team = await createTeam(app, owner, orgs[2]!.name);
  await addTeamMember(app, owner, team.id, user.username);
  expectList<Organization>('orgListCurrentUserOrgs', await list(user.auth), byName, ['c-limited'], 'after joining');
});

test('200: pagination with X-Total-Count and Link', async () => {
  expectFirstPageOfTwo(await list(owner.auth, { limit: 2 }), 3);
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgListCurrentUserOrgs', await list(), 401, 'anonymous');
  await expect401('orgListCurrentUserOrgs', (auth) => list(auth));
});

test('403: a token without read:organization', async () => {
  const token = await app.token(owner, ['read:repository']);
  await expectStatus('orgListCurrentUserOrgs', await list(token), 403, 'scope');
});

test.run();
