import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newComment, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { send205, setThread, threadRows, threadsOf, watch, type NotificationThread } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let other: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, other] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p)]);
  await Promise.all([watch(app, p.reader, repo.path), watch(app, p.reader, other.path)]);
});
test.after(async () => {
  await app.close();
});

/** PUT /repos/{o}/{r}/notifications with a raw query string; the 205 body parsed. */
const put = (target: Repo, query: string, auth: string | undefined = p.reader.auth) =>
  send205(app, 'PUT', `/repos/${target.full_name}/notifications${query ? `?${query}` : ''}`, auth);

const readerId = async () => (await app.services.users.byName(p.reader.username))!.id;

test('205: the reader\'s unread threads of this repository become read; the JSON list of the changed threads', async () => {
  const a = await newIssue(app, repo, p.owner, { title: 'first' });
  const b = await newIssue(app, repo, p.writer, { title: 'second' });
  await newIssue(app, other, p.owner, { title: 'elsewhere' });
  const before = await threadsOf(app, p.reader);
  assert.equal(before.map((t) => [t.subject.title, t.unread, t.subject.type, t.subject.state]), [
    ['elsewhere', true, 'Issue', 'open'], ['second', true, 'Issue', 'open'], ['first', true, 'Issue', 'open'],
  ]);
  const res = await put(repo, '');
  assert.is(res.status, 205);
  assert.match(res.contentType!, /application\/json/);
  assertSpecAnswer('notifyReadRepoList', 205, res.body);
  assert.equal(res.body.map((t: NotificationThread) => [t.subject.title, t.unread, t.pinned]), [['second', false, false], ['first', false, false]]);
  assert.is(res.body[0].subject.url, `${app.config.rootUrl}api/v1/repos/${repo.full_name}/issues/${b.number}`);
  assert.is(res.body[1].subject.html_url, `${app.config.rootUrl}${repo.full_name}/issues/${a.number}`);
  const after = await threadsOf(app, p.reader);
  assert.equal(after.map((t) => [t.subject.title, t.unread]), [['second', false], ['first', false], ['elsewhere', true]]);
  assert.equal((await put(repo, '')).body, [], 'nothing left to change');
  // A new comment makes a read thread unread again, pointing at the comment.
  const c = await newComment(app, repo, a.number, p.writer, 'news');
  const [t] = (await threadsOf(app, p.reader)).filter((x) => x.subject.title === 'first');
  assert.equal([t!.unread, t!.subject.latest_comment_url], [true, `${app.config.rootUrl}api/v1/repos/${repo.full_name}/issues/comments/${c.id}`]);
});

test('205: status-types, to-status, all and last_read_at select and move exactly the right threads', async () => {
  const target = await sharedRepo(app, p);
  await watch(app, p.reader, target.path);
  const made = [];
  for (let i = 0; i < 6; i++) made.push(await newIssue(app, target, p.owner, { title: `t${i}` }));
  const uid = await readerId();
  const rows = (await threadRows(app, uid)).filter((r) => r.repoId === target.id).sort((x, y) => x.id - y.id);
  assert.is(rows.length, 6);
  const statuses = ['unread', 'read', 'pinned'] as const;
  const base = Date.UTC(2030, 0, 1);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ status: fc.constantFrom(...statuses), minute: fc.integer({ min: 0, max: 5 }) }), { minLength: 6, maxLength: 6 }),
      fc.record({
        all: fc.option(fc.constantFrom('true', '1', 'false', 'nope'), { nil: undefined }),
        types: fc.subarray([...statuses]),
        to: fc.option(fc.constantFrom(...statuses), { nil: undefined }),
        lastRead: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
      }),
      async (states, q) => {
        for (const [i, s] of states.entries()) await setThread(app, rows[i]!.id, s.status, new Date(base + s.minute * 60_000));
        const query = new URLSearchParams();
        if (q.all !== undefined) query.set('all', q.all);
        for (const t of q.types) query.append('status-types', t);
        if (q.to) query.set('to-status', q.to);
        if (q.lastRead !== undefined) query.set('last_read_at', new Date(base + q.lastRead * 60_000).toISOString());
        const res = await put(target, query.toString());
        assert.is(res.status, 205, query.toString());
        const all = q.all === 'true' || q.all === '1';
        const selected = all ? [...statuses] : q.types.length ? q.types : ['unread'];
        const to = q.to ?? 'read';
        const moves = states.map((s) =>
          selected.includes(s.status) && (q.lastRead === undefined || s.minute <= q.lastRead) && s.status !== to);
        const now = (await threadRows(app, uid)).filter((r) => r.repoId === target.id).sort((x, y) => x.id - y.id);
        now.forEach((r, i) => {
          assert.is(r.status, moves[i] ? to : states[i]!.status, `thread ${i} ${JSON.stringify(states[i])} ${query}`);
          if (!moves[i]) assert.is(r.updatedAt.getTime(), base + states[i]!.minute * 60_000, `thread ${i} untouched`);
        });
        assert.equal(res.body.map((t: NotificationThread) => t.id).sort(), rows.filter((_, i) => moves[i]).map((r) => r.id).sort());
        for (const t of res.body as NotificationThread[]) assert.equal([t.unread, t.pinned], [to === 'unread', to === 'pinned']);
      },
    ),
    { numRuns: 40 },
  );
});

test('205: only the caller\'s threads, only of this repository; 404 for a repository the caller cannot see', async () => {
  const target = await sharedRepo(app, p, { private: true });
  await Promise.all([watch(app, p.reader, target.path), watch(app, p.writer, target.path)]);
  await newIssue(app, target, p.owner, { title: 'private news' });
  const res = await put(target, '', p.writer.auth);
  assert.equal(res.body.map((t: NotificationThread) => t.subject.title), ['private news']);
  const mine = (await threadsOf(app, p.reader)).find((t) => t.subject.title === 'private news');
  assert.ok(mine?.unread, 'the reader\'s thread is untouched');
  const hidden = await put(target, '', p.outsider.auth);
  assert.is(hidden.status, 404);
});

test('401, 403, 422: anonymous, a token without the notification scope, unknown values and a bad last_read_at', async () => {
  assert.is((await fetch(`${app.url}/api/v1/repos/${repo.full_name}/notifications`, { method: 'PUT' })).status, 401);
  const scoped = await put(repo, '', await app.token(p.reader, ['write:repository', 'write:issue']));
  assert.is(scoped.status, 403);
  assert.equal(scoped.body, { message: 'token does not have at least one of required scope(s): [write:notification]', url: swaggerOf(app) });
  for (const q of ['status-types=seen', 'to-status=gone', 'last_read_at=yesterday', 'last_read_at=2024-13-01T00:00:00Z']) {
    const res = await put(repo, q);
    assert.is(res.status, 422, q);
    assertSpecAnswer('notifyReadRepoList', 422, res.body);
  }
});

test.run();
