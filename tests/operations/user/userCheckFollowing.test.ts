import { test } from 'uvu';
import { circle, type Circle } from '../../helpers/follows.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let w: Circle;

test.before(async () => {
  app = await startApp();
  w = await circle(app);
});
test.after(async () => {
  await app.close();
});

const check = (username: string, target: string, auth?: string) =>
  app.client(auth).GET('/users/{username}/following/{target}', { params: { path: { username, target } } });

test('204: the user follows the target, whoever asks', async () => {
  await expectStatus('userCheckFollowing', await check(w.a.username, w.b.username), 204, 'anonymous');
  await expectStatus('userCheckFollowing', await check(w.b.username, w.a.username, w.c.auth), 204, 'another user');
  await expectStatus('userCheckFollowing', await check(w.a.username, w.hidden.username, w.hidden.auth), 204, 'a private target, to themselves');
  await expectStatus('userCheckFollowing', await check(w.hidden.username, w.a.username, w.admin.auth), 204, 'a private follower, to the admin');
});

test('404: not following, either unknown, or a private account to others', async () => {
  await expectStatus('userCheckFollowing', await check(w.c.username, w.a.username), 404, 'not following');
  await expectStatus('userCheckFollowing', await check(w.a.username, w.c.username, w.a.auth), 404, 'not following, to the user');
  await expectStatus('userCheckFollowing', await check('nobody-here', w.a.username), 404, 'unknown user');
  await expectStatus('userCheckFollowing', await check(w.a.username, 'nobody-here'), 404, 'unknown target');
  await expectStatus('userCheckFollowing', await check(w.a.username, w.hidden.username, w.b.auth), 404, 'private target');
  await expectStatus('userCheckFollowing', await check(w.hidden.username, w.a.username), 404, 'private follower, anonymous');
});

test('401 wrong credentials; 403 token without the user scope', async () => {
  await expect401('userCheckFollowing', (auth) => check(w.a.username, w.b.username, auth));
  await expectStatus('userCheckFollowing', await check(w.a.username, w.b.username, await app.token(w.c, ['read:repository'])), 403, 'scope');
});

test.run();
