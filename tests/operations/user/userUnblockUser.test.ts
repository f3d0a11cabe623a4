import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { block, noneRefused, refusals, unblockUser } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, createOrg, messageOf, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { userRepo } from '../../helpers/repos.js';

let app: TestApp;
let a: Actor;

test.before(async () => {
  app = await startApp();
  a = await actor(app);
});
test.after(async () => {
  await app.close();
});

test('204: the blocked user may follow, star, watch, open issues, comment and collaborate again', async () => {
  const [x, y] = await Promise.all([actor(app), actor(app)]);
  const repo = await userRepo(app, x);
  await block(app, x, y.username);
  await expectStatus('userUnblockUser', await unblockUser(app, x, y.username), 204, 'unblock');
  assert.equal(await refusals(app, y, repo, x), noneRefused);
});

test('400: a user not blocked, oneself, an organization', async () => {
  const [b, owner] = await Promise.all([actor(app), actor(app)]);
  let res = await unblockUser(app, a, b.username);
  await expectStatus('userUnblockUser', res, 400, 'not blocked');
  assert.is(messageOf(res.error), 'cannot unblock the user');
  await block(app, a, b.username);
  await expectStatus('userUnblockUser', await unblockUser(app, a, b.username), 204, 'first');
  await expectStatus('userUnblockUser', await unblockUser(app, a, b.username), 400, 'again');
  await expectStatus('userUnblockUser', await unblockUser(app, a, a.username), 400, 'oneself');
  const org = await createOrg(app, owner);
  res = await unblockUser(app, a, org.name);
  await expectStatus('userUnblockUser', res, 400, 'an organization');
  assert.is(messageOf(res.error), 'cannot block an organization');
});

test('404: an unknown or invisible user', async () => {
  const hidden = await actor(app, { visibility: 'private' });
  await expectStatus('userUnblockUser', await unblockUser(app, a, 'nobody-here'), 404, 'unknown');
  await expectStatus('userUnblockUser', await unblockUser(app, a, hidden.username), 404, 'private');
});

test('401 anonymous and wrong credentials; 403 token without write:user', async () => {
  const c = await actor(app);
  await block(app, a, c.username);
  const del = (auth?: string) => app.client(auth).DELETE('/user/blocks/{username}', { params: { path: { username: c.username } } });
  await expectStatus('userUnblockUser', await del(), 401, 'anonymous');
  await expect401('userUnblockUser', del);
  await expectStatus('userUnblockUser', await del(await app.token(a, ['read:user'])), 403, 'read scope');
});

test.run();
