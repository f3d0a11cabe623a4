import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newComment, newIssue, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { dropCollaborator, fadingThread, notificationWorld, send205, threadsOf, watch } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;

test.before(async () => {
  app = await startApp();
  ({ p, repo } = await notificationWorld(app));
});
test.after(async () => {
  await app.close();
});

const count = (auth?: string) => app.client(auth).GET('/notifications/new');

test('200: the number of unread threads only; 0 for someone without any', async () => {
  const res = await count(p.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('notifyNewAvailable', res);
  assert.equal(res.data, { new: 3 });
  const [a, b] = (await threadsOf(app, p.reader)).filter((t) => t.repository.id === repo.id);
  await send205(app, 'PATCH', `/notifications/threads/${a!.id}`, p.reader.auth);
  await send205(app, 'PATCH', `/notifications/threads/${b!.id}?to-status=pinned`, p.reader.auth);
  assert.equal((await count(p.reader.auth)).data, { new: 1 });
  assert.equal((await count(p.outsider.auth)).data, { new: 0 });
  assert.equal((await count(p.writer.auth)).data, { new: 0 }, 'the writer opened them');
});

test('200: news makes a read thread count again; a thread the user can no longer read does not count', async () => {
  const indexOf = (status: 'read' | 'pinned') => threadsOf(app, p.reader, { all: undefined, 'status-types': [status] })
    .then(([t]) => Number(t!.subject.url.split('/').pop()));
  const [read, pinned] = [await indexOf('read'), await indexOf('pinned')];
  await newComment(app, repo, pinned, p.writer, 'news for a pinned thread');
  assert.equal((await count(p.reader.auth)).data, { new: 1 }, 'pinned stays pinned');
  await newComment(app, repo, read, p.writer, 'news for a read thread');
  assert.equal((await count(p.reader.auth)).data, { new: 2 }, 'read turns unread');
  const fading = await fadingThread(app, p);
  assert.equal((await count(p.outsider.auth)).data, { new: 1 });
  await fading.hide();
  assert.equal((await count(p.outsider.auth)).data, { new: 0 });
  await fading.show();
  assert.equal((await count(p.outsider.auth)).data, { new: 1 });
  const priv = await sharedRepo(app, p, { private: true });
  await watch(app, p.reader, priv.path);
  await newIssue(app, priv, p.writer, { title: 'members only' });
  assert.equal((await count(p.reader.auth)).data, { new: 3 });
  await dropCollaborator(app, priv, p.owner, p.reader);
  assert.equal((await count(p.reader.auth)).data, { new: 2 }, 'no longer a collaborator of the private repository');
});

test('401, 403', async () => {
  assert.is((await count()).response.status, 401);
  const scoped = await count(await app.token(p.reader, ['read:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:notification]', url: swaggerOf(app) });
});

test.run();
