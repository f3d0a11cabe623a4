import { test } from 'uvu';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, publicizeMember, type Actor } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

type User = { login: string };

let app: TestApp;
let pub: PeopleWorld;
let priv: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [pub, admin] = await Promise.all([peopleWorld(app, 'public'), adminActor(app)]);
  priv = await peopleWorld(app, 'private', pub);
  for (const w of [pub, priv]) {
    await publicizeMember(app, w.org.id, w.member.id);
    await publicizeMember(app, w.org.id, w.creator.id);
  }
});
test.after(async () => {
  await app.close();
});

const list = (org: string, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/orgs/{org}/public_members', { params: { path: { org }, query } });
const byLogin = (u: User) => u.login;

test('200: the public members, by name, whoever asks', async () => {
  const expected = [pub.member.username, pub.creator.username].sort();
  for (const [label, a] of [['anonymous', undefined], ['outsider', pub.outsider.auth], ['owner', pub.owner.auth], ['admin', admin.auth]] as const) {
    expectList<User>('orgListPublicMembers', await list(pub.org.name, a), byLogin, expected, label);
  }
  expectList<User>('orgListPublicMembers', await list(priv.org.name, priv.owner.auth), byLogin, expected, 'private org, to a member');
});

test('200: concealing shows at once; pagination', async () => {
  const conceal = await app.client(pub.creator.auth).DELETE('/orgs/{org}/public_members/{username}', { params: { path: { org: pub.org.name, username: pub.creator.username } } });
  await expectStatus('orgConcealMember', conceal, 204, 'conceal');
  expectList<User>('orgListPublicMembers', await list(pub.org.name), byLogin, [pub.member.username], 'after concealing');
  const others = await Promise.all([actor(app), actor(app)]);
  for (const o of others) {
    await addTeamMember(app, pub.owner, pub.readers.id, o.username);
    await publicizeMember(app, pub.org.id, o.id);
  }
  expectFirstPageOfTwo(await list(pub.org.name, undefined, { limit: 2 }), 3);
});

test('404: a private organization to non-members, an unknown organization', async () => {
  await expectStatus('orgListPublicMembers', await list(priv.org.name), 404, 'anonymous');
  await expectStatus('orgListPublicMembers', await list(priv.org.name, priv.outsider.auth), 404, 'outsider');
  await expectStatus('orgListPublicMembers', await list('no-such-org'), 404, 'unknown');
});

test('401: wrong credentials', async () => {
  await expect401('orgListPublicMembers', (auth) => list(pub.org.name, auth));
});

test.run();
