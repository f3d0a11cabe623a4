import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addCollaborator, swaggerOf } from '../../helpers/repos.js';
import { editRepo, newIssue, type People, type Repo } from '../../helpers/issues.js';
import { notificationWorld, send205, setThread, threadsOf, watch } from '../../helpers/notifications.js';
import { linksOf } from '../../helpers/orgs.js';
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

/** `auth` null: anonymous. */
const list = (query: Record<string, unknown> = {}, auth: string | null = p.reader.auth) =>
  app.client(auth ?? undefined).GET('/notifications', { params: { query: query as never } });

test('200: unread and pinned threads by default, most recently updated first; the thread as the spec describes it', async () => {
  const res = await list();
  assert.is(res.response.status, 200);
  assertSpec('notifyGetList', res);
  assert.equal(res.data!.map((t) => t.subject.title), ['issue 2', 'issue 1', 'issue 0']);
  const t = res.data![2]!;
  const api = `${app.config.rootUrl}api/v1`;
  assert.equal({ ...t, repository: t.repository.full_name, updated_at: typeof t.updated_at }, {
    id: t.id, pinned: false, unread: true, updated_at: 'string', url: `${api}/notifications/threads/${t.id}`, repository: repo.full_name,
    subject: {
      title: 'issue 0', type: 'Issue', state: 'open', url: `${api}/repos/${repo.full_name}/issues/1`, html_url: `${app.config.rootUrl}${repo.full_name}/issues/1`,
      latest_comment_url: '', latest_comment_html_url: '',
    },
  });
  assert.is(res.response.headers.get('x-total-count'), '3');
  // Read ones are left out unless asked for; pinned ones stay.
  const [a, b] = res.data!;
  await send205(app, 'PATCH', `/notifications/threads/${a!.id}`, p.reader.auth);
  await send205(app, 'PATCH', `/notifications/threads/${b!.id}?to-status=pinned`, p.reader.auth);
  assert.equal((await list()).data!.map((x) => [x.subject.title, x.pinned, x.unread]), [['issue 1', true, false], ['issue 0', false, true]]);
  assert.equal((await list({ all: 'true' })).data!.length, 3);
  assert.equal((await list({ all: '1' })).data!.length, 3);
  assert.equal((await list({ all: 'yes' })).data!.length, 2, 'not a Go true: the default');
  assert.equal((await list({ 'status-types': ['read'] })).data!.map((x) => x.subject.title), ['issue 2']);
  assert.equal((await list({ 'status-types': ['read', 'unread'] })).data!.map((x) => x.subject.title), ['issue 2', 'issue 0']);
  await send205(app, 'PUT', '/notifications?all=true&to-status=unread', p.reader.auth);
});

test('200: subject-type, since and before; X-Total-Count and Link', async () => {
  const rows = (await threadsOf(app, p.reader)).filter((t) => t.repository.id === repo.id);
  const base = Date.UTC(2031, 0, 1);
  for (const [i, t] of rows.entries()) await setThread(app, t.id, 'unread', new Date(base + i * 60_000));
  assert.equal((await list({ 'subject-type': ['pull'] })).data, []);
  assert.equal((await list({ 'subject-type': ['issue', 'pull'] })).data!.length, 3);
  const since = await list({ since: new Date(base + 60_000).toISOString() });
  assert.is(since.data!.length, 2, 'updated at or after');
  const before = await list({ before: new Date(base + 60_000).toISOString() });
  assert.is(before.data!.length, 1, 'strictly before');
  const page = await list({ limit: 1, page: 2 });
  assert.is(page.data!.length, 1);
  assert.is(page.response.headers.get('x-total-count'), '3');
  assert.equal(linksOf(page.response.headers.get('link')), { next: { page: 3, limit: 1 }, last: { page: 3, limit: 1 }, first: { page: 1, limit: 1 }, prev: { page: 1, limit: 1 } });
});

test('200: a thread of a repository the user can no longer read is not listed', async () => {
  const secret = { ...repo };
  const priv = await app.client(p.owner.auth).POST('/user/repos', { body: { name: `hidden-${Date.now()}`, private: true } });
  const hidden = { ...priv.data!, path: { owner: p.owner.username, repo: priv.data!.name } } as Repo;
  await addCollaborator(app, hidden, p.outsider, 'read');
  await watch(app, p.outsider, hidden.path);
  await newIssue(app, hidden, p.owner, { title: 'for collaborators' });
  assert.equal((await list({}, p.outsider.auth)).data!.map((t) => t.subject.title), ['for collaborators']);
  await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { ...hidden.path, collaborator: p.outsider.username } } });
  const res = await list({ all: 'true' }, p.outsider.auth);
  assert.equal([res.data, res.response.headers.get('x-total-count')], [[], '0']);
  // Switching off the issues unit hides Issue threads too.
  await editRepo(app, secret, { has_issues: false });
  assert.equal((await list({ all: 'true' })).data, []);
  await editRepo(app, secret, { has_issues: true });
});

test('401, 403, 422: anonymous, a token without read:notification, bad values', async () => {
  const anon = await list({}, null);
  assert.is(anon.response.status, 401);
  assertSpec('notifyGetList', anon);
  const scoped = await list({}, await app.token(p.reader, ['read:repository', 'read:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:notification]', url: swaggerOf(app) });
  assert.is((await list({}, await app.token(p.reader, ['read:notification']))).response.status, 200);
  for (const q of [{ 'status-types': ['seen'] }, { 'subject-type': ['mail'] }, { since: 'yesterday' }, { before: '2024-02-30T00:00:00Z' }, { page: 'x' }]) {
    const res = await list(q);
    assert.is(res.response.status, 422, JSON.stringify(q));
    assertSpec('notifyGetList', res);
  }
});

test.run();
