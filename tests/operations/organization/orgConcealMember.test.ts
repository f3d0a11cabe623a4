import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, publicizeMember, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let w: PeopleWorld;
let priv: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin] = await Promise.all([peopleWorld(app), adminActor(app)]);
  priv = await peopleWorld(app, 'private', w);
  for (const x of [w, priv]) for (const u of [x.owner, x.member, x.creator]) await publicizeMember(app, x.org.id, u.id);
});
test.after(async () => {
  await app.close();
});

const conceal = (org: string, username: string, auth?: string) =>
  app.client(auth).DELETE('/orgs/{org}/public_members/{username}', { params: { path: { org, username } } });
const isPublic = async (org: string, username: string) =>
  (await app.client(admin.auth).GET('/orgs/{org}/public_members/{username}', { params: { path: { org, username } } })).response.status === 204;

test('204: a member conceals their own membership; again changes nothing', async () => {
  assert.is(await isPublic(w.org.name, w.member.username), true);
  await expectStatus('orgConcealMember', await conceal(w.org.name, w.member.username, w.member.auth), 204, 'self');
  assert.is(await isPublic(w.org.name, w.member.username), false);
  await expectStatus('orgConcealMember', await conceal(w.org.name, w.member.username, w.member.auth), 204, 'again');
});

test('204: owners and site admins conceal another member', async () => {
  await expectStatus('orgConcealMember', await conceal(w.org.name, w.creator.username, w.owner.auth), 204, 'owner');
  await expectStatus('orgConcealMember', await conceal(w.org.name, w.owner.username, admin.auth), 204, 'admin');
  assert.is(await isPublic(w.org.name, w.creator.username), false);
  assert.is(await isPublic(w.org.name, w.owner.username), false);
});

test('403: another member who is not an owner; a non-member', async () => {
  const res = await conceal(priv.org.name, priv.creator.username, priv.member.auth);
  await expectStatus('orgConcealMember', res, 403, 'member on another member');
  assert.is((res.error as { message: string }).message, 'Cannot conceal another member');
  const out = await conceal(w.org.name, w.outsider.username, w.outsider.auth);
  await expectStatus('orgConcealMember', out, 403, 'outsider');
  assert.is((out.error as { message: string }).message, 'Must be an organization member');
  assert.is(await isPublic(priv.org.name, priv.creator.username), true);
});

test('404: a user who is no member, an unknown user, an organization the caller cannot see', async () => {
  await expectStatus('orgConcealMember', await conceal(w.org.name, w.outsider.username, w.owner.auth), 404, 'non-member');
  await expectStatus('orgConcealMember', await conceal(w.org.name, 'nobody-here', w.owner.auth), 404, 'unknown user');
  await expectStatus('orgConcealMember', await conceal(priv.org.name, priv.outsider.username, priv.outsider.auth), 404, 'private org');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgConcealMember', await conceal(w.org.name, w.member.username), 401, 'anonymous');
  await expect401('orgConcealMember', (auth) => conceal(w.org.name, w.member.username, auth));
});

test('403: a read-only token', async () => {
  const token = await app.token(w.member, ['read:organization']);
  await expectStatus('orgConcealMember', await conceal(w.org.name, w.member.username, token), 403, 'read token');
});

test.run();
