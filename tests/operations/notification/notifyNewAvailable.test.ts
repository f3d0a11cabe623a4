import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { type People, type Repo } from '../../helpers/issues.js';
import { notificationWorld, send205, threadsOf } from '../../helpers/notifications.js';
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

test('401, 403', async () => {
  assert.is((await count()).response.status, 401);
  const scoped = await count(await app.token(p.reader, ['read:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:notification]', url: swaggerOf(app) });
});

test.run();
