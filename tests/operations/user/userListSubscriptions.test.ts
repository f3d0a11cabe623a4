import { test } from 'uvu';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { expect401, expectList, expectStatus } from '../../helpers/people.js';
import { actor } from '../../helpers/repos.js';
import { watchers, type Watchers } from '../../helpers/subscriptions.js';

let app: TestApp;
let w: Watchers;

test.before(async () => {
  app = await startApp();
  w = await watchers(app);
});
test.after(async () => {
  await app.close();
});

const list = (username: string, auth?: string) => app.client(auth).GET('/users/{username}/subscriptions', { params: { path: { username } } });
const name = (r: { name: string }) => r.name;

test('200: the user\'s own list to themselves; public repositories only to others, anonymous included', async () => {
  expectList('userListSubscriptions', await list(w.watcher.username, w.watcher.auth), name, ['secret', 'open'], 'themselves');
  expectList('userListSubscriptions', await list(w.watcher.username), name, ['open'], 'anonymous');
  expectList('userListSubscriptions', await list(w.watcher.username, w.owner.auth), name, ['open'], 'the owner of the private one');
  expectList('userListSubscriptions', await list(w.other.username, w.other.auth), name, [], 'nobody');
});

test('404: an unknown user, a private user to others', async () => {
  const hidden = await actor(app, { visibility: 'private' });
  await expectStatus('userListSubscriptions', await list('nobody-here'), 404, 'unknown');
  await expectStatus('userListSubscriptions', await list(hidden.username, w.other.auth), 404, 'private user');
  expectList('userListSubscriptions', await list(hidden.username, hidden.auth), name, [], 'the private user themselves');
});

test('401 wrong credentials; 403 token without the user scope', async () => {
  await expect401('userListSubscriptions', (auth) => list(w.watcher.username, auth));
  await expectStatus('userListSubscriptions', await list(w.watcher.username, await app.token(w.other, ['read:repository'])), 403, 'scope');
});

test.run();
