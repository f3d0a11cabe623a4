import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { editIssue, editRepo, newComment, newIssue, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { dropCollaborator, fadingThread, notificationWorld, send205, threadsOf, watch, type NotificationThread } from '../../helpers/notifications.js';
import { addCollaborator, swaggerOf } from '../../helpers/repos.js';
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

test('200: the subject as it is now: unread again with the new comment, closed', async () => {
  await send205(app, 'PATCH', `/notifications/threads/${mine.id}`, p.reader.auth);
  const c = await newComment(app, repo, 1, p.writer, 'news');
  await editIssue(app, repo, 1, p.writer, { state: 'closed' });
  const res = await get(mine.id, p.reader.auth);
  assertSpec('notifyGetThread', res);
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  assert.equal([res.data!.unread, res.data!.pinned, res.data!.url], [true, false, `${app.config.rootUrl}api/v1/notifications/threads/${mine.id}`]);
  assert.equal(res.data!.subject, {
    ...mine.subject, state: 'closed',
    latest_comment_url: `${api}/issues/comments/${c.id}`, latest_comment_html_url: `${app.config.rootUrl}${repo.full_name}/issues/1#issuecomment-${c.id}`,
  });
  assert.ok(res.data!.updated_at >= mine.updated_at);
  assert.equal((await get(mine.id, p.reader.auth)).data, res.data, 'reading it does not mark it read');
});

test('404 once the user can no longer read the repository: collaborator removed, or repository made private', async () => {
  const priv = await sharedRepo(app, p, { private: true });
  await watch(app, p.reader, priv.path);
  await newIssue(app, priv, p.writer, { title: 'members only' });
  const [t] = (await threadsOf(app, p.reader)).filter((x) => x.repository.id === priv.id);
  assert.is((await get(t!.id, p.reader.auth)).response.status, 200);
  await dropCollaborator(app, priv, p.owner, p.reader);
  const gone = await get(t!.id, p.reader.auth);
  assert.is(gone.response.status, 404);
  assertSpec('notifyGetThread', gone);
  await addCollaborator(app, priv, p.reader, 'read');
  assert.equal((await get(t!.id, p.reader.auth)).data!.subject.title, 'members only');
  const fading = await fadingThread(app, p);
  await fading.hide();
  assert.is((await get(fading.thread.id, p.outsider.auth)).response.status, 404);
  await fading.show();
  assert.equal((await get(fading.thread.id, p.outsider.auth)).data!.id, fading.thread.id);
});

test('401, 403, 422', async () => {
  assert.is((await get(mine.id)).response.status, 401);
  const scoped = await get(mine.id, await app.token(p.reader, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:notification]', url: swaggerOf(app) });
  for (const id of ['abc', '1.5', '1e3', '0x10', '%20']) {
    const res = await get(id, p.reader.auth);
    assert.is(res.response.status, 422, id);
    assertSpec('notifyGetThread', res);
  }
});

test.run();
