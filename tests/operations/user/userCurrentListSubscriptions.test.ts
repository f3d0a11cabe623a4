import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { expect401, expectList, expectStatus } from '../../helpers/people.js';
import { removeCollaborator, watchers, type Watchers } from '../../helpers/subscriptions.js';

let app: TestApp;
let w: Watchers;

test.before(async () => {
  app = await startApp();
  w = await watchers(app);
});
test.after(async () => {
  await app.close();
});

const list = (auth?: string, query: { page?: number; limit?: number } = {}) => app.client(auth).GET('/user/subscriptions', { params: { query } });
const name = (r: { name: string }) => r.name;

test('200: the watched repositories, most recent first, with the caller\'s permissions', async () => {
  const mine = expectList<{ name: string; permissions?: { pull: boolean; push: boolean } }>('userCurrentListSubscriptions', await list(w.watcher.auth), name, ['secret', 'open'], 'watcher');
  assert.equal(mine[0]!.permissions, { admin: false, push: false, pull: true });
  expectList('userCurrentListSubscriptions', await list(w.owner.auth), name, ['secret', 'open'], 'the owner watches what they created');
  expectList('userCurrentListSubscriptions', await list(w.other.auth), name, [], 'nobody');
  const page = await list(w.watcher.auth, { limit: 1 });
  assert.equal(page.data!.map(name), ['secret']);
  assert.is(page.response.headers.get('x-total-count'), '2');
});

test('200: a repository the caller may no longer see is left out', async () => {
  await removeCollaborator(app, w.owner, w.secret, w.watcher.username);
  expectList('userCurrentListSubscriptions', await list(w.watcher.auth), name, ['open'], 'after losing access');
});

test('401 anonymous and wrong credentials; 403 token without the user scope', async () => {
  await expectStatus('userCurrentListSubscriptions', await list(), 401, 'anonymous');
  await expect401('userCurrentListSubscriptions', (auth) => list(auth));
  await expectStatus('userCurrentListSubscriptions', await list(await app.token(w.watcher, ['read:repository'])), 403, 'scope');
});

test.run();
