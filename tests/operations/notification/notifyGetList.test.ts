import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addCollaborator, pathOf, swaggerOf, userRepo } from '../../helpers/repos.js';
import { editIssue, editRepo, newComment, newIssue, type People, type Repo } from '../../helpers/issues.js';
import { fadingThread, notificationWorld, send205, setThread, threadsOf, watch } from '../../helpers/notifications.js';
import { addFile, openPull, patch } from '../../helpers/pulls.js';
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
  assert.equal((await list({ all: 'true', 'status-types': ['read'] })).data!.length, 3, 'all wins over status-types');
  assert.equal((await list({ 'status-types': ['read'] })).data!.map((x) => x.subject.title), ['issue 2']);
  assert.equal((await list({ 'status-types': ['read', 'unread'] })).data!.map((x) => x.subject.title), ['issue 2', 'issue 0']);
  await send205(app, 'PUT', '/notifications?all=true&to-status=unread', p.reader.auth);
});

test('200: subject-type, since and before; X-Total-Count and Link', async () => {
  const rows = (await threadsOf(app, p.reader)).filter((t) => t.repository.id === repo.id);
  // Stored half a second into their minute; shown (and filtered) in whole seconds, as Gitea stores them.
  const base = Date.UTC(2031, 0, 1);
  for (const [i, t] of rows.entries()) await setThread(app, t.id, 'unread', new Date(base + i * 60_000 + 500));
  const shown = (await list()).data!.map((t) => t.updated_at);
  assert.equal(shown, [2, 1, 0].map((i) => new Date(base + i * 60_000).toISOString().replace('.000Z', 'Z')));
  assert.equal((await list({ 'subject-type': ['pull'] })).data, []);
  assert.equal((await list({ 'subject-type': ['issue', 'pull'] })).data!.length, 3);
  const at = (ms: number) => new Date(base + 60_000 + ms).toISOString();
  for (const ms of [0, 900]) {
    const since = await list({ since: at(ms) });
    assert.equal([since.data!.map((t) => t.subject.title), since.response.headers.get('x-total-count')], [['issue 0', 'issue 1'], '2'], `since ${at(ms)}: updated at or after`);
    const before = await list({ before: at(ms) });
    assert.equal([before.data!.map((t) => t.subject.title), before.response.headers.get('x-total-count')], [['issue 2'], '1'], `before ${at(ms)}: strictly before`);
  }
  assert.equal((await list({ since: at(0), before: at(60_000) })).data!.map((t) => t.updated_at), [shown[1]], 'both');
  assert.equal((await list({ since: at(1000) })).data!.length, 1);
  // Moments PostgreSQL cannot store select what they mean: everything since year 0, nothing before it or since 9999.
  assert.equal((await list({ since: '0000-01-01T00:00:00Z' })).data!.length, 3);
  assert.equal((await list({ before: '0001-01-01T00:00:00+02:00' })).data, []);
  assert.equal((await list({ since: '9999-12-31T23:00:00-02:00' })).data, []);
  const page = await list({ limit: 1, page: 2 });
  assert.equal(page.data!.map((t) => t.subject.title), ['issue 1']);
  assert.is(page.response.headers.get('x-total-count'), '3');
  assert.equal(linksOf(page.response.headers.get('link')), { next: { page: 3, limit: 1 }, last: { page: 3, limit: 1 }, first: { page: 1, limit: 1 }, prev: { page: 1, limit: 1 } });
  const last = await list({ limit: 2, page: 2 });
  assert.equal([last.data!.map((t) => t.subject.title), linksOf(last.response.headers.get('link'))], [['issue 2'], { first: { page: 1, limit: 2 }, prev: { page: 1, limit: 2 } }]);
  const one = await list({ limit: 50 });
  assert.equal([one.data!.length, one.response.headers.get('link')], [3, null], 'a single page: no Link');
  const filtered = await list({ limit: 1, 'status-types': ['unread'], 'subject-type': ['issue'] });
  const next = new URL(/<([^>]+)>; rel="next"/.exec(filtered.response.headers.get('link')!)![1]!);
  assert.equal([next.searchParams.getAll('status-types'), next.searchParams.getAll('subject-type'), next.searchParams.get('page')], [['unread'], ['issue'], '2'], 'the links keep the filters');
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

test('200: a thread goes when its repository turns private for a non-collaborator, and comes back with it', async () => {
  const fading = await fadingThread(app, p, 'public for now');
  const titles = async () => (await list({ all: 'true' }, p.outsider.auth)).data!.map((t) => t.subject.title);
  assert.equal(await titles(), ['public for now']);
  await fading.hide();
  const res = await list({ all: 'true' }, p.outsider.auth);
  assert.equal([res.data, res.response.headers.get('x-total-count')], [[], '0']);
  assert.equal((await list({}, p.outsider.auth)).data, []);
  await fading.show();
  assert.equal(await titles(), ['public for now']);
});

test('200: the subject follows its issue or pull request: Pull type, closed state, the comment that made the thread unread', async () => {
  const git = await userRepo(app, p.owner, { auto_init: true });
  const target: Repo = { ...git, path: pathOf(git) };
  await Promise.all([addCollaborator(app, git, p.reader, 'read'), addCollaborator(app, git, p.writer, 'write')]);
  await watch(app, p.reader, target.path);
  const issue = await newIssue(app, target, p.writer, { title: 'to close' });
  await patch(app, git, p.writer, addFile('f.txt', ['f']), { newBranch: 'topic' });
  const pr = await openPull(app, git, p.writer, 'topic', { title: 'a pull' });
  const mine = async (query: Record<string, unknown> = {}) => (await list({ all: 'true', ...query })).data!.filter((t) => t.repository.id === git.id);
  const api = `${app.config.rootUrl}api/v1/repos/${git.full_name}`;
  const html = `${app.config.rootUrl}${git.full_name}`;
  const [pull, iss] = await mine();
  assert.equal(pull!.subject, {
    title: 'a pull', type: 'Pull', state: 'open', url: `${api}/pulls/${pr.number}`, html_url: `${html}/pulls/${pr.number}`, latest_comment_url: '', latest_comment_html_url: '',
  });
  assert.equal([iss!.subject.title, iss!.subject.type, iss!.url], ['to close', 'Issue', `${app.config.rootUrl}api/v1/notifications/threads/${iss!.id}`]);
  assert.equal([iss!.repository.full_name, iss!.repository.id, iss!.repository.private], [git.full_name, git.id, false]);
  assert.equal((await mine({ 'subject-type': ['pull'] })).map((t) => t.subject.title), ['a pull']);
  assert.equal((await mine({ 'subject-type': ['issue'] })).map((t) => t.subject.title), ['to close']);
  // Read, then a comment and the close: unread again, first in the list, pointing at the comment, closed.
  await send205(app, 'PATCH', `/notifications/threads/${iss!.id}`, p.reader.auth);
  const c = await newComment(app, target, issue.number, p.writer, 'closing this');
  await editIssue(app, target, issue.number, p.writer, { state: 'closed' });
  const [first] = await mine();
  assert.equal([first!.id, first!.unread], [iss!.id, true]);
  assert.equal(first!.subject, {
    title: 'to close', type: 'Issue', state: 'closed', url: `${api}/issues/${issue.number}`, html_url: `${html}/issues/${issue.number}`,
    latest_comment_url: `${api}/issues/comments/${c.id}`, latest_comment_html_url: `${html}/issues/${issue.number}#issuecomment-${c.id}`,
  });
});

test('401, 403, 422: anonymous, a token without read:notification, bad values', async () => {
  const anon = await list({}, null);
  assert.is(anon.response.status, 401);
  assertSpec('notifyGetList', anon);
  const scoped = await list({}, await app.token(p.reader, ['read:repository', 'read:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:notification]', url: swaggerOf(app) });
  assert.is((await list({}, await app.token(p.reader, ['read:notification']))).response.status, 200);
  for (const q of [
    { 'status-types': ['seen'] }, { 'status-types': ['unread', 'seen'] }, { 'subject-type': ['mail'] }, { 'subject-type': ['Issue'] },
    { since: 'yesterday' }, { since: '1700000000' }, { before: '2024-02-30T00:00:00Z' }, { since: '2016-12-31T23:59:60Z' }, { page: 'x' }, { limit: '1.5' },
  ]) {
    const res = await list(q);
    assert.is(res.response.status, 422, JSON.stringify(q));
    assertSpec('notifyGetList', res);
  }
});

test.run();
