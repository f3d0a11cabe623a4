import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newIssue, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { fadingThread, notificationWorld, send205, watch } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

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
const list = (target: Repo, query: Record<string, unknown> = {}, auth: string | null = p.reader.auth) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/notifications', { params: { path: target.path, query: query as never } });

test('200: only this repository\'s threads of the caller, with the list\'s filters', async () => {
  const res = await list(repo);
  assert.is(res.response.status, 200);
  assertSpec('notifyGetRepoList', res);
  assert.equal(res.data!.map((t) => t.subject.title), ['issue 1', 'issue 0']);
  assert.is(res.response.headers.get('x-total-count'), '2');
  assert.equal((await list(other)).data!.map((t) => t.subject.title), ['elsewhere']);
  assert.equal((await list(repo, { 'subject-type': ['pull'] })).data, []);
  assert.equal((await list(repo, { limit: 1, page: 2 })).data!.map((t) => t.subject.title), ['issue 0']);
  assert.equal((await list(repo, {}, p.outsider.auth)).data, [], 'an outsider of a public repository has no threads');
  assert.equal((await list(repo, {}, p.owner.auth)).data!.length, 2, 'the owner watches it');
  const [newest] = res.data!;
  await send205(app, 'PATCH', `/notifications/threads/${newest!.id}`, p.reader.auth);
  assert.equal((await list(repo)).data!.map((t) => t.subject.title), ['issue 0'], 'read: left out by default');
  assert.equal((await list(repo, { all: 'true' })).data!.map((t) => [t.subject.title, t.unread]), [['issue 1', false], ['issue 0', true]], 'just read: the most recently updated');
  assert.equal((await list(repo, { 'status-types': ['read'] })).data!.map((t) => [t.subject.title, t.unread]), [['issue 1', false]]);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  assert.equal((await list(repo, { all: 'true', since: future })).data, []);
  assert.equal((await list(repo, { all: 'true', before: future })).response.headers.get('x-total-count'), '2');
});

test('404 once the repository turns private for a non-collaborator; its threads come back with it', async () => {
  const fading = await fadingThread(app, p, 'watched');
  assert.equal((await list(fading.repo, {}, p.outsider.auth)).data!.map((t) => t.id), [fading.thread.id]);
  await fading.hide();
  const hidden = await list(fading.repo, {}, p.outsider.auth);
  assert.is(hidden.response.status, 404);
  assertSpec('notifyGetRepoList', hidden);
  await fading.show();
  assert.equal((await list(fading.repo, {}, p.outsider.auth)).data!.map((t) => t.id), [fading.thread.id]);
});

test('401, 403, 404, 422', async () => {
  assert.is((await list(repo, {}, null)).response.status, 401);
  const scoped = await list(repo, {}, await app.token(p.reader, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:notification]', url: swaggerOf(app) });
  const priv = await sharedRepo(app, p, { private: true });
  const hidden = await list(priv, {}, p.outsider.auth);
  assert.is(hidden.response.status, 404);
  assertSpec('notifyGetRepoList', hidden);
  assert.is((await list({ ...repo, path: { owner: p.owner.username, repo: 'nope' } })).response.status, 404);
  for (const q of [{ 'status-types': ['gone'] }, { 'subject-type': ['commits'] }, { since: 'now' }, { before: '2024-01-01' }, { before: '2016-12-31T23:59:60Z' }]) {
    const bad = await list(repo, q);
    assert.is(bad.response.status, 422, JSON.stringify(q));
    assertSpec('notifyGetRepoList', bad);
  }
});

test.run();
