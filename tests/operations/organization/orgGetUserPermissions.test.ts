import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let pub: PeopleWorld;
let priv: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  pub = await peopleWorld(app, 'public');
  priv = await peopleWorld(app, 'private', pub);
  admin = await adminActor(app);
});
test.after(async () => {
  await app.close();
});

const get = (username: string, org: string, auth?: string) =>
  app.client(auth).GET('/users/{username}/orgs/{org}/permissions', { params: { path: { username, org } } });
const perms = (read: boolean, write: boolean, adm: boolean, owner: boolean, create: boolean) =>
  ({ can_read: read, can_write: write, is_admin: adm, is_owner: owner, can_create_repository: create });

test('200: from the user\'s teams, whoever signed in asks', async () => {
  const cases = [
    [pub.owner, perms(true, true, true, true, true)],
    [pub.member, perms(true, false, false, false, false)],
    [pub.creator, perms(true, true, false, false, true)],
    [pub.outsider, perms(false, false, false, false, false)],
  ] as const;
  for (const [who, expected] of cases) {
    const res = await get(who.username, pub.org.name, pub.outsider.auth);
    await expectStatus('orgGetUserPermissions', res, 200, who.username);
    assert.equal(res.data, expected, who.username);
  }
  assert.equal((await get(priv.member.username, priv.org.name, priv.member.auth)).data, perms(true, false, false, false, false), 'private org, to a member');
  assert.equal((await get(priv.creator.username, priv.org.name, admin.auth)).data, perms(true, true, false, false, true), 'private org, to the admin');
});

test('200: an admin team is admin', async () => {
  const res = await app.client(pub.owner.auth).POST('/orgs/{org}/teams', { params: { path: { org: pub.org.name } }, body: { name: 'admins', permission: 'admin' } });
  assert.is(res.response.status, 201);
  await app.client(pub.owner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: res.data!.id, username: pub.member.username } } });
  assert.equal((await get(pub.member.username, pub.org.name, pub.member.auth)).data, perms(true, true, true, false, false));
});

test('404: an organization invisible to the caller or to the user, unknown ones, a private user', async () => {
  await expectStatus('orgGetUserPermissions', await get(priv.member.username, priv.org.name, pub.outsider.auth), 404, 'private org to an outsider');
  await expectStatus('orgGetUserPermissions', await get(pub.outsider.username, priv.org.name, priv.owner.auth), 404, 'private org invisible to the user');
  await expectStatus('orgGetUserPermissions', await get(pub.member.username, 'no-such-org', pub.owner.auth), 404, 'unknown org');
  await expectStatus('orgGetUserPermissions', await get('nobody-here', pub.org.name, pub.owner.auth), 404, 'unknown user');
  await expectStatus('orgGetUserPermissions', await get(pub.org.name, pub.org.name, pub.owner.auth), 404, 'an organization as the user');
});

test('401 anonymous and wrong credentials; 403 token without both scopes', async () => {
  await expectStatus('orgGetUserPermissions', await get(pub.member.username, pub.org.name), 401, 'anonymous');
  await expect401('orgGetUserPermissions', (auth) => get(pub.member.username, pub.org.name, auth));
  await expectStatus('orgGetUserPermissions', await get(pub.member.username, pub.org.name, await app.token(pub.member, ['read:user'])), 403, 'user scope only');
  await expectStatus('orgGetUserPermissions', await get(pub.member.username, pub.org.name, await app.token(pub.member, ['read:organization'])), 403, 'organization scope only');
});

test.run();
