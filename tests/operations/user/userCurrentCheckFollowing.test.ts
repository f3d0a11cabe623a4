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

const check = (username: string, auth?: string) => app.client(auth).GET('/user/following/{username}', { params: { path: { username } } });

test('204: the caller follows the account', async () => {
  await expectStatus('userCurrentCheckFollowing', await check(w.b.username, w.a.auth), 204, 'a follows b');
  await expectStatus('userCurrentCheckFollowing', await check(w.a.username, w.hidden.auth), 204, 'a private user follows a');
});

test('404: not followed, unknown, or invisible', async () => {
  await expectStatus('userCurrentCheckFollowing', await check(w.b.username, w.c.auth), 404, 'c follows nobody');
  await expectStatus('userCurrentCheckFollowing', await check(w.c.username, w.a.auth), 404, 'a does not follow c');
  await expectStatus('userCurrentCheckFollowing', await check('nobody-here', w.a.auth), 404, 'unknown');
  await expectStatus('userCurrentCheckFollowing', await check(w.hidden.username, w.b.auth), 404, 'a private user, to another');
  await expectStatus('userCurrentCheckFollowing', await check(w.hidden.username, w.a.auth), 404, 'a private user, to a follower');
});

test('401 anonymous and wrong credentials; 403 token without the user scope', async () => {
  await expectStatus('userCurrentCheckFollowing', await check(w.b.username), 401, 'anonymous');
  await expect401('userCurrentCheckFollowing', (auth) => check(w.b.username, auth));
  await expectStatus('userCurrentCheckFollowing', await check(w.b.username, await app.token(w.a, ['read:repository'])), 403, 'scope');
});

test.run();
