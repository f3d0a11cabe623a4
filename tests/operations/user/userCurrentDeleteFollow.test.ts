import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countsOf, follow } from '../../helpers/follows.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, type Actor } from '../../helpers/orgs.js';
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

const del = (username: string, auth?: string) => app.client(auth).DELETE('/user/following/{username}', { params: { path: { username } } });

test('204: unfollows; again, or one never followed, changes nothing; the counters stay exact', async () => {
  await follow(app, a, b.username);
  await follow(app, b, a.username);
  assert.equal(await countsOf(app, a.username), [1, 1]);
  await expectStatus('userCurrentDeleteFollow', await del(b.username, a.auth), 204, 'unfollow');
  const again = await Promise.all(Array.from({ length: 5 }, () => del(b.username, a.auth)));
  assert.ok(again.every((r) => r.response.status === 204));
  assert.equal(await countsOf(app, a.username), [1, 0]);
  assert.equal(await countsOf(app, b.username), [0, 1]);
  assert.is((await app.client(a.auth).GET('/user/following/{username}', { params: { path: { username: b.username } } })).response.status, 404);
});

test('the counters follow a deleted account', async () => {
  const gone = await actor(app);
  await follow(app, gone, a.username);
  await follow(app, a, gone.username);
  assert.equal(await countsOf(app, a.username), [2, 1]);
  const admin = await app.token(app.admin, ['all']);
  assert.is((await app.client(admin).DELETE('/admin/users/{username}', { params: { path: { username: gone.username } } })).response.status, 204);
  assert.equal(await countsOf(app, a.username), [1, 0]);
});

test('404: an unknown or invisible account', async () => {
  await expectStatus('userCurrentDeleteFollow', await del('nobody-here', a.auth), 404, 'unknown');
  await expectStatus('userCurrentDeleteFollow', await del(hidden.username, a.auth), 404, 'private');
});

test('401 anonymous and wrong credentials; 403 token without write:user', async () => {
  await expectStatus('userCurrentDeleteFollow', await del(b.username), 401, 'anonymous');
  await expect401('userCurrentDeleteFollow', (auth) => del(b.username, auth));
  await expectStatus('userCurrentDeleteFollow', await del(b.username, await app.token(a, ['read:user'])), 403, 'read scope');
});

test.run();
