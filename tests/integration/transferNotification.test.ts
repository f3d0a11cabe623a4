// A pending transfer is a Repository notification thread of its recipient (a user, or the owners of an
// organisation), shown while it is pending even when the recipient could not see the repository.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { threadsOf } from '../helpers/notifications.js';
import { actor, orgWorld, userRepo, type Actor } from '../helpers/repos.js';
import { pending, reject } from '../helpers/transfers.js';

let app: TestApp;
let owner: Actor;
let recipient: Actor;

test.before(async () => {
  app = await startApp();
  [owner, recipient] = await Promise.all([actor(app), actor(app)]);
});
test.after(async () => {
  await app.close();
});

test('a transfer offered to a user: one unread Repository thread, also for a private repository; gone when rejected', async () => {
  const repo = await userRepo(app, owner, { private: true });
  await pending(app, repo, { new_owner: recipient.username }, owner.auth);
  const [t] = (await threadsOf(app, recipient)).filter((x) => x.repository.id === repo.id);
  assert.ok(t, 'the recipient has a thread');
  assert.equal([t!.unread, t!.subject.type, t!.subject.title, t!.subject.state], [true, 'Repository', repo.full_name, '']);
  assert.is(t!.subject.url, `${app.config.rootUrl}api/v1/repos/${repo.full_name}`);
  assert.equal((await threadsOf(app, owner)).filter((x) => x.repository.id === repo.id), [], 'not the one who offered it');
  const res = await reject(app, repo, recipient.auth);
  assert.is(res.response.status, 200);
  assert.equal((await threadsOf(app, recipient)).filter((x) => x.repository.id === repo.id), [], 'a private repository the recipient no longer sees');
});

test('a transfer offered to an organisation: a thread for each member of its owner teams', async () => {
  const world = await orgWorld(app);
  const repo = await userRepo(app, owner);
  await pending(app, repo, { new_owner: world.name }, owner.auth);
  const owners = (await threadsOf(app, world.owner)).filter((x) => x.repository.id === repo.id);
  assert.equal(owners.map((x) => x.subject.type), ['Repository']);
  for (const other of [world.teamAdmin, world.member]) {
    assert.equal((await threadsOf(app, other)).filter((x) => x.repository.id === repo.id), [], 'not members outside the owner teams');
  }
});

test.run();
