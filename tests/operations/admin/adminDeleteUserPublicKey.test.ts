import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addUserKey } from '../../helpers/keys.js';
import { actor, adminActor, type Actor } from '../../helpers/orgs.js';
import { expectStatus } from '../../helpers/people.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let admin: Actor;
let user: Actor;
let other: Actor;

test.before(async () => {
  app = await startApp();
  [admin, user, other] = await Promise.all([adminActor(app), actor(app), actor(app)]);
});
test.after(async () => {
  await app.close();
});

const del = (username: string, id: number, auth: string | null = admin.auth) =>
  app.client(auth ?? undefined).DELETE('/admin/users/{username}/keys/{id}', { params: { path: { username, id } } });
const keysOf = async (a: Actor) => (await app.client(a.auth).GET('/user/keys')).data!.map((k) => k.id);

test('204: the user\'s key is gone', async () => {
  const key = await addUserKey(app, user as never);
  await expectStatus('adminDeleteUserPublicKey', await del(user.username, key.id), 204, 'deleted');
  assert.equal(await keysOf(user), []);
  await expectStatus('adminDeleteUserPublicKey', await del(user.username, key.id), 404, 'again');
});

test('404: another user\'s key, an unknown key or user', async () => {
  const key = await addUserKey(app, other as never);
  await expectStatus('adminDeleteUserPublicKey', await del(user.username, key.id), 404, 'another user\'s key');
  assert.equal(await keysOf(other), [key.id]);
  await expectStatus('adminDeleteUserPublicKey', await del(user.username, 987654), 404, 'unknown key');
  await expectStatus('adminDeleteUserPublicKey', await del('nobody-here', key.id), 404, 'unknown user');
});

test('401 anonymous, 403 a plain user or a token without write:admin', async () => {
  const key = await addUserKey(app, user as never);
  await assertAdminOnly(app, (auth) => del(user.username, key.id, auth), 'write:admin');
  assert.equal(await keysOf(user), [key.id], 'still there');
});

test.run();
