import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newIssue, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { fadingThread, notificationWorld, send205, threadRows, threadsOf, watch, type NotificationThread } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let other: Repo;

test.before(async () => {
  app = await startApp();
  ({ p, repo } = await notificationWorld(app, 2));
  other = await sharedRepo(app, p);
  await watch(app, p.reader, other.path);
  await newIssue(app, other, p.writer, { title: 'elsewhere' });
});
test.after(async () => {
  await app.close();
});

/** `auth` null: anonymous. */
const put = (query = '', auth: string | null = p.reader.auth) => send205(app, 'PUT', `/notifications${query ? `?${query}` : ''}`, auth ?? undefined);
const flags = async () => (await threadsOf(app, p.reader)).map((t) => `${t.subject.title}:${t.unread ? 'u' : t.pinned ? 'p' : 'r'}`).sort();

test('205: every repository\'s unread threads become read; the changed threads, newest first', async () => {
  const res = await put();
  assert.is(res.status, 205);
  assertSpecAnswer('notifyReadList', 205, res.body);
  assert.equal(res.body.map((t: NotificationThread) => t.subject.title), ['elsewhere', 'issue 1', 'issue 0']);
  assert.ok(res.body.every((t: NotificationThread) => !t.unread && !t.pinned));
  assert.equal(await flags(), ['elsewhere:r', 'issue 0:r', 'issue 1:r']);
  assert.equal((await put()).body, [], 'nothing unread left');
  assert.equal((await put('', p.owner.auth)).body.length, 3, 'the owner\'s own threads, untouched by the reader\'s');
});

test('205: to-status, status-types, all and last_read_at', async () => {
  assert.equal((await put('status-types=read&to-status=pinned')).body.length, 3);
  assert.equal(await flags(), ['elsewhere:p', 'issue 0:p', 'issue 1:p']);
  const past = await put('all=true&to-status=unread&last_read_at=2000-01-01T00:00:00Z');
  assert.equal(past.body, [], 'nothing was updated that early');
  assert.equal((await put('all=true&to-status=unread')).body.length, 3);
  assert.equal(await flags(), ['elsewhere:u', 'issue 0:u', 'issue 1:u']);
});

test('205: last_read_at is read at the precision updated_at is shown (whole seconds): a thread updated in that second changes', async () => {
  const threads = await threadsOf(app, p.reader);
  assert.is(new Set(threads.map((t) => t.updated_at)).size, 1, 'made unread together, by one PUT');
  const shown = threads[0]!.updated_at;
  assert.match(shown, /T\d\d:\d\d:\d\dZ$/);
  const earlier = new Date(Date.parse(shown) - 1).toISOString();
  assert.equal((await put(`to-status=pinned&last_read_at=${earlier}`)).body, [], 'the millisecond before that second');
  const res = await put(`to-status=pinned&last_read_at=${encodeURIComponent(shown)}`);
  assert.equal(res.body.map((t: NotificationThread) => t.id).sort(), threads.map((t) => t.id).sort());
  assert.is((await put('status-types=pinned&to-status=unread')).body.length, 3);
  // The edges of what PostgreSQL stores: nothing was updated in year 0, everything before 10000.
  assert.equal((await put('last_read_at=0000-12-31T23:59:59Z')).body, []);
  assert.is((await put('last_read_at=9999-12-31T23:59:59.999Z')).body.length, 3);
  assert.is((await put('all=true&to-status=unread&last_read_at=9999-12-31T23:00:00-02:00')).body.length, 3);
});

test('205: a thread whose repository the caller can no longer read is left as it is', async () => {
  const fading = await fadingThread(app, p);
  await fading.hide();
  assert.equal((await put('all=true&to-status=pinned', p.outsider.auth)).body, []);
  const [row] = (await threadRows(app, (await app.services.users.byName(p.outsider.username))!.id)).filter((r) => r.id === fading.thread.id);
  assert.is(row!.status, 'unread');
  await fading.show();
  const res = await put('', p.outsider.auth);
  assert.equal(res.body.map((t: NotificationThread) => [t.id, t.unread]), [[fading.thread.id, false]], 'readable again: changed');
});

test('401, 403, 422', async () => {
  assert.is((await put('', null)).status, 401);
  const scoped = await put('', await app.token(p.reader, ['read:notification']));
  assert.is(scoped.status, 403);
  assert.equal(scoped.body, { message: 'token does not have at least one of required scope(s): [write:notification]', url: swaggerOf(app) });
  for (const q of ['to-status=gone', 'status-types=x', 'last_read_at=noon', 'last_read_at=2016-12-31T23:59:60Z']) {
    const res = await put(q);
    assert.is(res.status, 422, q);
    assertSpecAnswer('notifyReadList', 422, res.body);
  }
});

test.run();
