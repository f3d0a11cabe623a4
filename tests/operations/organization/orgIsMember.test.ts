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

const check = (org: string, username: string, auth?: string) =>
  app.client(auth).GET('/orgs/{org}/members/{username}', { params: { path: { org, username } }, redirect: 'manual' } as never);

test('204 / 404 to members and site admins: whether the user is a member', async () => {
  for (const [label, a] of [['owner', pub.owner], ['member', pub.member], ['admin', admin]] as const) {
    await expectStatus('orgIsMember', await check(pub.org.name, pub.creator.username, a.auth), 204, `${label}: a member`);
    await expectStatus('orgIsMember', await check(pub.org.name, pub.outsider.username, a.auth), 404, `${label}: a non-member`);
  }
  await expectStatus('orgIsMember', await check(priv.org.name, priv.member.username, priv.owner.auth), 204, 'private org, to its owner');
});

test('302 to the public membership for others asking about someone else; 404 asking about themselves', async () => {
  const res = await check(pub.org.name, pub.member.username, pub.outsider.auth);
  await expectStatus('orgIsMember', res, 302, 'outsider');
  assert.is(res.response.headers.get('location'), `/api/v1/orgs/${pub.org.name}/public_members/${pub.member.username}`);
  await expectStatus('orgIsMember', await check(pub.org.name, pub.outsider.username, pub.outsider.auth), 404, 'oneself');
});

test('404: a private organization to outsiders, unknown organization or user', async () => {
  await expectStatus('orgIsMember', await check(priv.org.name, priv.member.username, priv.outsider.auth), 404, 'private org');
  await expectStatus('orgIsMember', await check('no-such-org', pub.member.username, pub.owner.auth), 404, 'unknown org');
  await expectStatus('orgIsMember', await check(pub.org.name, 'nobody-here', pub.owner.auth), 404, 'unknown user');
});

test('401 anonymous and wrong credentials; 403 token without the organization scope', async () => {
  await expectStatus('orgIsMember', await check(pub.org.name, pub.member.username), 401, 'anonymous');
  await expect401('orgIsMember', (auth) => check(pub.org.name, pub.member.username, auth));
  await expectStatus('orgIsMember', await check(pub.org.name, pub.member.username, await app.token(pub.owner, ['read:user'])), 403, 'scope');
});

test.run();
