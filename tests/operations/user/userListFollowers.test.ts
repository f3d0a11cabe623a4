import { test } from 'uvu';
import { circle, type Circle } from '../../helpers/follows.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
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

const list = (username: string, auth?: string) => app.client(auth).GET('/users/{username}/followers', { params: { path: { username } } });
const login = (u: { login: string }) => u.login;

test('200: whoever asks sees the followers they may see, most recent first', async () => {
  expectList('userListFollowers', await list(w.a.username), login, [w.b.username], 'anonymous: no private follower');
  expectList('userListFollowers', await list(w.a.username, w.c.auth), login, [w.b.username], 'another user');
  expectList('userListFollowers', await list(w.a.username, w.hidden.auth), login, [w.hidden.username, w.b.username], 'the private follower sees themselves');
  expectList('userListFollowers', await list(w.a.username, w.admin.auth), login, [w.hidden.username, w.b.username], 'the admin sees all');
  expectList('userListFollowers', await list(w.c.username), login, [], 'nobody follows c');
});

test('200: an organization\'s followers', async () => {
  const org = await createOrg(app, w.c);
  const res = await app.client(w.b.auth).PUT('/user/following/{username}', { params: { path: { username: org.name } } });
  await expectStatus('userCurrentPutFollow', res, 204, 'follow an organization');
  expectList('userListFollowers', await list(org.name), login, [w.b.username], 'the org has one follower');
});

test('404: an unknown user, a private user to others', async () => {
  await expectStatus('userListFollowers', await list('nobody-here'), 404, 'unknown');
  await expectStatus('userListFollowers', await list(w.hidden.username), 404, 'private, anonymous');
  await expectStatus('userListFollowers', await list(w.hidden.username, w.c.auth), 404, 'private, another user');
  expectList('userListFollowers', await list(w.hidden.username, w.hidden.auth), login, [w.a.username], 'the private user themselves');
});

test('401 wrong credentials; 403 token without the user scope', async () => {
  await expect401('userListFollowers', (auth) => list(w.a.username, auth));
  await expectStatus('userListFollowers', await list(w.a.username, await app.token(w.c, ['read:repository'])), 403, 'scope');
});

test.run();
