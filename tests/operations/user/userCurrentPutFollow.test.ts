import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { userBlocks } from '../../../src/db/schema/index.js';
import { countsOf } from '../../helpers/follows.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, createOrg, messageOf, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let a: Actor;
let b: Actor;
let hidden: Actor;

test.before(async () => {
  app = await startApp();
  [a, b, hidden] = await Promise.all([actor(app), actor(app), actor(app, { visibility: 'private' })]);
});
test.after(async () => {
  await app.close();
});

const put = (username: string, auth?: string) => app.client(auth).PUT('/user/following/{username}', { params: { path: { username } } });
const check = (username: string, auth: string) => app.client(auth).GET('/user/following/{username}', { params: { path: { username } } });

test('204: follows; again, at once ten times, or oneself changes nothing; the counters stay exact', async () => {
  await expectStatus('userCurrentPutFollow', await put(b.username, a.auth), 204, 'follow');
  assert.is((await check(b.username, a.auth)).response.status, 204);
  const again = await Promise.all(Array.from({ length: 10 }, () => put(b.username, a.auth)));
  assert.ok(again.every((r) => r.response.status === 204));
  await expectStatus('userCurrentPutFollow', await put(a.username, a.auth), 204, 'oneself');
  assert.is((await check(a.username, a.auth)).response.status, 404, 'nobody follows themselves');
  assert.equal(await countsOf(app, a.username), [0, 1]);
  assert.equal(await countsOf(app, b.username), [1, 0]);
  const org = await createOrg(app, b);
  await expectStatus('userCurrentPutFollow', await put(org.name, a.auth), 204, 'an organization');
  assert.equal(await countsOf(app, a.username), [0, 2]);
});

test('403: either of the two blocked the other; nothing changes', async () => {
  const [x, y] = await Promise.all([actor(app), actor(app)]);
  await app.services.deps.db.insert(userBlocks).values({ blockerId: y.id, blockeeId: x.id });
  const res = await put(y.username, x.auth);
  await expectStatus('userCurrentPutFollow', res, 403, 'the blocked one');
  assert.is(messageOf(res.error), 'user has been blocked');
  await expectStatus('userCurrentPutFollow', await put(x.username, y.auth), 403, 'the blocker');
  assert.equal(await countsOf(app, x.username), [0, 0]);
  assert.equal(await countsOf(app, y.username), [0, 0]);
});

test('404: an unknown or invisible account', async () => {
  await expectStatus('userCurrentPutFollow', await put('nobody-here', a.auth), 404, 'unknown');
  await expectStatus('userCurrentPutFollow', await put(hidden.username, a.auth), 404, 'private');
  assert.equal(await countsOf(app, hidden.username), [0, 0]);
});

test('401 anonymous and wrong credentials; 403 token without write:user', async () => {
  await expectStatus('userCurrentPutFollow', await put(b.username), 401, 'anonymous');
  await expect401('userCurrentPutFollow', (auth) => put(b.username, auth));
  await expectStatus('userCurrentPutFollow', await put(b.username, await app.token(a, ['read:user'])), 403, 'read scope');
});

test.run();
