import { test } from 'uvu';
import { circle, type Circle } from '../../helpers/follows.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { expect401, expectList, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let w: Circle;

test.before(async () => {
  app = await startApp();
  w = await circle(app);
});
test.after(async () => {
  await app.close();
});

const list = (username: string, auth?: string) => app.client(auth).GET('/users/{username}/following', { params: { path: { username } } });
const login = (u: { login: string }) => u.login;

test('200: the followed accounts the caller may see, most recent first', async () => {
  expectList('userListFollowing', await list(w.a.username), login, [w.b.username], 'anonymous: no private account');
  expectList('userListFollowing', await list(w.a.username, w.b.auth), login, [w.b.username], 'another user');
  expectList('userListFollowing', await list(w.a.username, w.hidden.auth), login, [w.hidden.username, w.b.username], 'the private account sees themselves');
  expectList('userListFollowing', await list(w.a.username, w.admin.auth), login, [w.hidden.username, w.b.username], 'the admin sees all');
  expectList('userListFollowing', await list(w.b.username), login, [w.a.username], 'b follows a');
  expectList('userListFollowing', await list(w.c.username), login, [], 'c follows nobody');
});

test('404: an unknown user, a private user to others', async () => {
  await expectStatus('userListFollowing', await list('nobody-here'), 404, 'unknown');
  await expectStatus('userListFollowing', await list(w.hidden.username), 404, 'private, anonymous');
  await expectStatus('userListFollowing', await list(w.hidden.username, w.b.auth), 404, 'private, another user');
  expectList('userListFollowing', await list(w.hidden.username, w.admin.auth), login, [w.a.username], 'the admin');
});

test('401 wrong credentials; 403 token without the user scope', async () => {
  await expect401('userListFollowing', (auth) => list(w.a.username, auth));
  await expectStatus('userListFollowing', await list(w.a.username, await app.token(w.c, ['read:repository'])), 403, 'scope');
});

test.run();
