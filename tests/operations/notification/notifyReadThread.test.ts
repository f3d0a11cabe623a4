import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { type People, type Repo } from '../../helpers/issues.js';
import { fadingThread, notificationWorld, send205, threadsOf, type NotificationThread } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

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

/** `auth` null: anonymous. */
const patch = (id: number | string, query = '', auth: string | null = p.reader.auth) =>
  send205(app, 'PATCH', `/notifications/threads/${id}${query ? `?${query}` : ''}`, auth ?? undefined);

test('205: read by default, then pinned, unread and read again; the thread with its new flags', async () => {
  for (const [query, flags] of [['', [false, false]], ['to-status=pinned', [false, true]], ['to-status=unread', [true, false]], ['to-status=read', [false, false]]] as const) {
    const res = await patch(mine.id, query);
    assert.is(res.status, 205, query);
    assert.match(res.contentType!, /application\/json/);
    assertSpecAnswer('notifyReadThread', 205, res.body);
    assert.equal([res.body.unread, res.body.pinned], flags, query);
    assert.is(res.body.id, mine.id);
    const [now] = (await threadsOf(app, p.reader)).filter((t) => t.id === mine.id);
    assert.equal([now!.unread, now!.pinned], flags, `${query}: stored`);
  }
});

test('205: the same status again is no change; the thread as GET shows it', async () => {
  const first = await patch(mine.id, 'to-status=pinned');
  const again = await patch(mine.id, 'to-status=pinned');
  assert.equal([again.status, again.body], [205, first.body]);
  const got = await app.client(p.reader.auth).GET('/notifications/threads/{id}', { params: { path: { id: mine.id } } });
  assert.equal(got.data, again.body);
  assert.equal([again.body.url, again.body.repository.full_name, again.body.subject.title], [`${app.config.rootUrl}api/v1/notifications/threads/${mine.id}`, repo.full_name, 'issue 0']);
  assert.equal((await app.client(p.reader.auth).GET('/notifications/new')).data, { new: 0 }, 'pinned is not new');
  await patch(mine.id, 'to-status=unread');
  assert.equal((await app.client(p.reader.auth).GET('/notifications/new')).data, { new: 1 });
  await patch(mine.id);
});

test('404: a thread of a repository the user can no longer read, and it keeps its status', async () => {
  const fading = await fadingThread(app, p);
  await fading.hide();
  const res = await patch(fading.thread.id, 'to-status=pinned', p.outsider.auth);
  assert.is(res.status, 404);
  await fading.show();
  const [now] = await threadsOf(app, p.outsider);
  assert.equal([now!.id, now!.unread, now!.pinned], [fading.thread.id, true, false]);
  assert.equal((await patch(fading.thread.id, 'to-status=pinned', p.outsider.auth)).body.pinned, true, 'readable again');
});

test('404: another user\'s thread or an unknown one, and nothing changes', async () => {
  for (const [id, auth] of [[mine.id, p.owner.auth], [mine.id, p.admin.auth], [99_999_999, p.reader.auth]] as const) {
    const res = await patch(id, 'to-status=pinned', auth);
    assert.is(res.status, 404, `${id}`);
  }
  const [now] = (await threadsOf(app, p.reader)).filter((t) => t.id === mine.id);
  assert.is(now!.pinned, false);
});

test('401, 403, 422', async () => {
  assert.is((await patch(mine.id, '', null)).status, 401);
  const scoped = await patch(mine.id, '', await app.token(p.reader, ['read:notification']));
  assert.is(scoped.status, 403);
  assert.equal(scoped.body, { message: 'token does not have at least one of required scope(s): [write:notification]', url: swaggerOf(app) });
  for (const [id, query] of [['abc', ''], ['2.0', ''], [String(mine.id), 'to-status=gone'], [String(mine.id), 'to-status=Read']]) {
    const res = await patch(id!, query);
    assert.is(res.status, 422, `${id} ${query}`);
    assertSpecAnswer('notifyReadThread', 422, res.body);
  }
});

test.run();
