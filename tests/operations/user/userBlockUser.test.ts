import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eq } from 'drizzle-orm';
import { userBlocks } from '../../../src/db/schema/index.js';
import { allRefused, allTies, blockUser, noTies, refusals, repoCounts, ties, tiesLeft } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, createOrg, messageOf, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let a: Actor;
let b: Actor;

test.before(async () => {
  app = await startApp();
  [a, b] = await Promise.all([actor(app), actor(app)]);
});
test.after(async () => {
  await app.close();
});

test('204: the block ends every tie between the two, at once, with the counters', async () => {
  const t = await ties(app);
  assert.equal(await tiesLeft(app, t), allTies);
  await expectStatus('userBlockUser', await blockUser(app, t.a, t.b.username, 'spam'), 204, 'block');
  assert.equal(await tiesLeft(app, t), noTies);
  assert.equal(await repoCounts(app, t.a, t.aRepo), [0, 1], 'a still watches its own repository');
  assert.equal(await repoCounts(app, t.b, t.bRepo), [0, 1]);
  const [row] = await app.services.deps.db.select().from(userBlocks).where(eq(userBlocks.blockerId, t.a.id));
  assert.is(row?.blockeeId, t.b.id);
  assert.is(row?.note, 'spam');
});

test('403 afterwards: the blocked user cannot follow, star, watch, open issues, comment or collaborate', async () => {
  const [x, y] = await Promise.all([actor(app), actor(app)]);
  const { userRepo } = await import('../../helpers/repos.js');
  const repo = await userRepo(app, x);
  await expectStatus('userBlockUser', await blockUser(app, x, y.username), 204, 'block');
  assert.equal(await refusals(app, y, repo, x), allRefused);
});

test('400: oneself, an organization, a user already blocked', async () => {
  let res = await blockUser(app, a, a.username);
  await expectStatus('userBlockUser', res, 400, 'oneself');
  assert.is(messageOf(res.error), 'cannot block the user');
  const org = await createOrg(app, b);
  res = await blockUser(app, a, org.name);
  await expectStatus('userBlockUser', res, 400, 'an organization');
  assert.is(messageOf(res.error), 'cannot block an organization');
  await expectStatus('userBlockUser', await blockUser(app, a, b.username), 204, 'first');
  res = await blockUser(app, a, b.username);
  await expectStatus('userBlockUser', res, 400, 'again');
  assert.is(messageOf(res.error), 'cannot block the user');
});

test('404: an unknown or invisible user; 422: a note over 255 characters', async () => {
  const hidden = await actor(app, { visibility: 'private' });
  await expectStatus('userBlockUser', await blockUser(app, a, 'nobody-here'), 404, 'unknown');
  await expectStatus('userBlockUser', await blockUser(app, a, hidden.username), 404, 'private');
  const c = await actor(app);
  await expectStatus('userBlockUser', await blockUser(app, a, c.username, 'n'.repeat(256)), 422, 'long note');
});

test('401 anonymous and wrong credentials; 403 token without write:user', async () => {
  const c = await actor(app);
  await expectStatus('userBlockUser', await app.client().PUT('/user/blocks/{username}', { params: { path: { username: c.username } } }), 401, 'anonymous');
  await expect401('userBlockUser', (auth) => app.client(auth).PUT('/user/blocks/{username}', { params: { path: { username: c.username } } }));
  const readOnly = await app.token(a, ['read:user']);
  await expectStatus('userBlockUser', await app.client(readOnly).PUT('/user/blocks/{username}', { params: { path: { username: c.username } } }), 403, 'read scope');
});

test.run();
