import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { circle, follow, logins, type Circle } from '../../helpers/follows.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let w: Circle;

test.before(async () => {
  app = await startApp();
  w = await circle(app);
});
test.after(async () => {
  await app.close();
});

const list = (auth?: string, query: { page?: number; limit?: number } = {}) => app.client(auth).GET('/user/following', { params: { query } });

test('200: the accounts the caller follows and may see, most recent first; nobody for a new user', async () => {
  expectList<{ login: string }>('userCurrentListFollowing', await list(w.a.auth), (u) => u.login, [w.b.username], 'a private account is left out');
  expectList<{ login: string }>('userCurrentListFollowing', await list(w.hidden.auth), (u) => u.login, [w.a.username], 'hidden follows a');
  expectList('userCurrentListFollowing', await list(w.c.auth), (u: { login: string }) => u.login, [], 'c follows nobody');
});

test('200: pages with X-Total-Count and Link', async () => {
  const fan = await actor(app);
  const idols = await Promise.all([actor(app), actor(app), actor(app)]);
  for (const i of idols) await follow(app, fan, i.username);
  expectFirstPageOfTwo(await list(fan.auth, { limit: 2 }), 3);
  const all = await list(fan.auth);
  assert.equal(logins(all.data!), idols.map((i) => i.username).reverse());
});

test('401 anonymous and wrong credentials; 403 token without the user scope', async () => {
  await expectStatus('userCurrentListFollowing', await list(), 401, 'anonymous');
  await expect401('userCurrentListFollowing', (auth) => list(auth));
  await expectStatus('userCurrentListFollowing', await list(await app.token(w.a, ['read:repository'])), 403, 'scope');
});

test.run();
