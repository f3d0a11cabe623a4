import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { keyPair, withoutComment } from '../../helpers/keys.js';
import { actor, adminActor, createOrg, messageOf, type Actor } from '../../helpers/orgs.js';
import { expectStatus } from '../../helpers/people.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let admin: Actor;
let user: Actor;

test.before(async () => {
  app = await startApp();
  [admin, user] = await Promise.all([adminActor(app), actor(app)]);
});
test.after(async () => {
  await app.close();
});

const post = (username: string, body: { title: string; key: string }, auth: string | null = admin.auth) =>
  app.client(auth ?? undefined).POST('/admin/users/{username}/keys', { params: { path: { username } }, body });

test('201: the key is the user\'s, as if they had added it', async () => {
  const key = keyPair();
  const res = await post(user.username, { title: 'deploy', key: key.public });
  await expectStatus('adminCreatePublicKey', res, 201, 'created');
  assert.is(res.data!.title, 'deploy');
  assert.is(withoutComment(res.data!.key), withoutComment(key.public));
  const theirs = await app.client(user.auth).GET('/user/keys');
  assert.equal(theirs.data!.map((k) => k.id), [res.data!.id]);
});

test('422: a key that cannot be read, or one in use', async () => {
  const bad = await post(user.username, { title: 'bad', key: 'ssh-ed25519 not-a-key' });
  await expectStatus('adminCreatePublicKey', bad, 422, 'unreadable');
  const key = keyPair();
  assert.is((await post(user.username, { title: 'one', key: key.public })).response.status, 201);
  const again = await post(admin.username, { title: 'two', key: key.public });
  await expectStatus('adminCreatePublicKey', again, 422, 'in use');
  assert.ok(messageOf(again.error).length > 0);
});

test('404: an unknown user or an organization', async () => {
  await expectStatus('adminCreatePublicKey', await post('nobody-here', { title: 'x', key: keyPair().public }), 404, 'unknown');
  const org = await createOrg(app, user);
  await expectStatus('adminCreatePublicKey', await post(org.name, { title: 'x', key: keyPair().public }), 404, 'organization');
});

test('401 anonymous, 403 a plain user or a token without write:admin', async () => {
  await assertAdminOnly(app, (auth) => post(user.username, { title: 'x', key: keyPair().public }, auth), 'write:admin');
  assert.is((await app.client(user.auth).GET('/user/keys')).data!.length, 2, 'nothing was added by those refused');
});

test.run();
