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

const list = (auth?: string, query: { page?: number; limit?: number } = {}) => app.client(auth).GET('/user/followers', { params: { query } });

test('200: the followers the caller may see, most recent first; nobody for a new user', async () => {
  const mine = expectList<{ login: string }>('userCurrentListFollowers', await list(w.a.auth), (u) => u.login, [w.b.username], 'a private follower is left out');
  assert.is(mine.length, 1);
  expectList('userCurrentListFollowers', await list(w.admin.auth), (u: { login: string }) => u.login, [], 'the admin has none');
  expectList('userCurrentListFollowers', await list(w.c.auth), (u: { login: string }) => u.login, [], 'c has none');
});

test('200: pages with X-Total-Count and Link', async () => {
  const target = await actor(app);
  const fans = await Promise.all([actor(app), actor(app), actor(app)]);
  for (const f of fans) await follow(app, f, target.username);
  expectFirstPageOfTwo(await list(target.auth, { limit: 2 }), 3);
  const all = await list(target.auth);
  assert.equal(logins(all.data!), fans.map((f) => f.username).reverse());
});

test('401 anonymous and wrong credentials; 403 token without the user scope', async () => {
  await expectStatus('userCurrentListFollowers', await list(), 401, 'anonymous');
  await expect401('userCurrentListFollowers', (auth) => list(auth));
  await expectStatus('userCurrentListFollowers', await list(await app.token(w.a, ['read:repository'])), 403, 'scope');
});

test.run();
