import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { block } from '../../helpers/blocks.js';
import { logins } from '../../helpers/follows.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let a: Actor;
let blocked: Actor[];

test.before(async () => {
  app = await startApp();
  [a, ...blocked] = await Promise.all([actor(app), actor(app), actor(app), actor(app)]);
  for (const b of blocked) await block(app, a, b.username);
});
test.after(async () => {
  await app.close();
});

const list = (auth?: string, query: { page?: number; limit?: number } = {}) => app.client(auth).GET('/user/blocks', { params: { query } });

test('200: the users the caller blocked, most recent first; nobody else sees them', async () => {
  const want = blocked.map((b) => b.username).reverse();
  expectList('userListBlocks', await list(a.auth), (u: { login: string }) => u.login, want, 'blocks');
  expectList('userListBlocks', await list(blocked[0]!.auth), (u: { login: string }) => u.login, [], 'a blocked user blocked nobody');
  const readOnly = await app.token(a, ['read:user']);
  assert.equal(logins((await list(readOnly)).data!), want, 'read:user is enough');
});

test('200: pages', async () => {
  expectFirstPageOfTwo(await list(a.auth, { limit: 2 }), 3);
  const second = await list(a.auth, { page: 2, limit: 2 });
  assert.equal(logins(second.data!), [blocked[0]!.username]);
});

test('401 anonymous and wrong credentials; 403 token without read:user', async () => {
  await expectStatus('userListBlocks', await list(), 401, 'anonymous');
  await expect401('userListBlocks', (auth) => list(auth));
  await expectStatus('userListBlocks', await list(await app.token(a, ['read:repository'])), 403, 'other scope');
});

test.run();
