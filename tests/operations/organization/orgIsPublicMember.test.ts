import { test } from 'uvu';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { publicizeMember } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let pub: PeopleWorld;
let priv: PeopleWorld;

test.before(async () => {
  app = await startApp();
  pub = await peopleWorld(app, 'public');
  priv = await peopleWorld(app, 'private', pub);
  for (const w of [pub, priv]) await publicizeMember(app, w.org.id, w.member.id);
});
test.after(async () => {
  await app.close();
});

const check = (org: string, username: string, auth?: string) =>
  app.client(auth).GET('/orgs/{org}/public_members/{username}', { params: { path: { org, username } } });

test('204: a public member, whoever asks', async () => {
  for (const [label, a] of [['anonymous', undefined], ['outsider', pub.outsider.auth], ['member', pub.member.auth]] as const) {
    await expectStatus('orgIsPublicMember', await check(pub.org.name, pub.member.username, a), 204, label);
  }
  await expectStatus('orgIsPublicMember', await check(priv.org.name, priv.member.username, priv.owner.auth), 204, 'private org, to a member');
});

test('404: a concealed member, a non-member, an unknown user', async () => {
  await expectStatus('orgIsPublicMember', await check(pub.org.name, pub.owner.username, pub.owner.auth), 404, 'concealed');
  await expectStatus('orgIsPublicMember', await check(pub.org.name, pub.outsider.username), 404, 'non-member');
  await expectStatus('orgIsPublicMember', await check(pub.org.name, 'nobody-here'), 404, 'unknown user');
});

test('404: a private organization to non-members, an unknown organization', async () => {
  await expectStatus('orgIsPublicMember', await check(priv.org.name, priv.member.username), 404, 'anonymous');
  await expectStatus('orgIsPublicMember', await check(priv.org.name, priv.member.username, priv.outsider.auth), 404, 'outsider');
  await expectStatus('orgIsPublicMember', await check('no-such-org', pub.member.username), 404, 'unknown');
});

test('401: wrong credentials', async () => {
  await expect401('orgIsPublicMember', (auth) => check(pub.org.name, pub.member.username, auth));
});

test.run();
