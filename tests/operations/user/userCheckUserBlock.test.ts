import { test } from 'uvu';
import { block } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let a: Actor;
let b: Actor;

test.before(async () => {
  app = await startApp();
  [a, b] = await Promise.all([actor(app), actor(app)]);
  await block(app, a, b.username);
});
test.after(async () => {
  await app.close();
});

const check = (username: string, auth?: string) => app.client(auth).GET('/user/blocks/{username}', { params: { path: { username } } });

test('204: blocked; 404: not blocked (either way round), unknown', async () => {
  await expectStatus('userCheckUserBlock', await check(b.username, a.auth), 204, 'blocked');
  await expectStatus('userCheckUserBlock', await check(a.username, b.auth), 404, 'the blocked one did not block');
  await expectStatus('userCheckUserBlock', await check(a.username, a.auth), 404, 'oneself');
  await expectStatus('userCheckUserBlock', await check('nobody-here', a.auth), 404, 'unknown');
  await expectStatus('userCheckUserBlock', await check(b.username, await app.token(a, ['read:user'])), 204, 'read:user');
});

test('401 anonymous and wrong credentials; 403 token without read:user', async () => {
  await expectStatus('userCheckUserBlock', await check(b.username), 401, 'anonymous');
  await expect401('userCheckUserBlock', (auth) => check(b.username, auth));
  await expectStatus('userCheckUserBlock', await check(b.username, await app.token(a, ['read:repository'])), 403, 'other scope');
});

test.run();
