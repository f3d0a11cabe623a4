import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { editRepo, type People, type Repo } from '../../helpers/issues.js';
import { notificationWorld, threadsOf, type NotificationThread } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let mine: NotificationThread;

test.before(async () => {
  app = await startApp();
  ({ p, repo } = await notificationWorld(app, 1));
  [mine] = (await threadsOf(app, p.reader)).filter((t) => t.repository.id === repo.id) as [NotificationThread];
});
test.after(async () => {
  await app.close();
});

const get = (id: number | string, auth?: string) =>
  app.client(auth).GET('/notifications/threads/{id}', { params: { path: { id: id as number } } });

test('200: the caller\'s thread, as the list shows it', async () => {
  const res = await get(mine.id, p.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('notifyGetThread', res);
  assert.equal(res.data, mine);
  assert.is(res.data!.subject.latest_comment_url, '', 'the thread came with the issue, before its comment');
});

test('404: another user\'s thread, an unknown id, a subject the caller can no longer read', async () => {
  for (const [id, auth] of [[mine.id, p.owner.auth], [mine.id, p.admin.auth], [99_999_999, p.reader.auth]] as const) {
    const res = await get(id, auth);
    assert.is(res.response.status, 404, `${id}`);
    assertSpec('notifyGetThread', res);
  }
  await editRepo(app, repo, { has_issues: false });
  assert.is((await get(mine.id, p.reader.auth)).response.status, 404);
  await editRepo(app, repo, { has_issues: true });
  assert.is((await get(mine.id, p.reader.auth)).response.status, 200);
});

test('401, 403, 422', async () => {
  assert.is((await get(mine.id)).response.status, 401);
  const scoped = await get(mine.id, await app.token(p.reader, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:notification]', url: swaggerOf(app) });
  for (const id of ['abc', '1.5', '1e3']) {
    const res = await get(id, p.reader.auth);
    assert.is(res.response.status, 422, id);
    assertSpec('notifyGetThread', res);
  }
});

test.run();
