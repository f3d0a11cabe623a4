import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, type Repo } from '../../helpers/issues.js';
import { addFile, openPull, patch } from '../../helpers/pulls.js';
import { addCollaborator, messageOf, pathOf, swaggerOf, userRepo } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, setTracker, timeWorld, tracked, type TimeWorld, type TrackedTime } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;
let times: TrackedTime[];

const list = (repo: Repo, query: Record<string, string | number>, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/times', { params: { path: repo.path, query } });
const ids = (ts: TrackedTime[] | undefined) => (ts ?? []).map((t) => t.id);

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
  times = [
    await tracked(app, w.repo, w.issue.number, w.p.writer, { time: 10, created: '2024-03-01T00:00:00Z' }),
    await tracked(app, w.repo, w.readersIssue.number, w.p.reader, { time: 20, created: '2024-03-02T00:00:00Z' }),
    await tracked(app, w.repo, w.issue.number, w.p.owner, { time: 30, created: '2024-03-03T00:00:00Z' }),
  ];
});
test.after(async () => {
  await app.close();
});

test('200: every time on every issue of the repository for writers, the owner and the site admin, oldest first', async () => {
  for (const as of [w.p.writer, w.p.owner, w.p.admin]) {
    const r = await list(w.repo, {}, as.auth);
    assert.is(r.response.status, 200);
    assertSpec('repoTrackedTimes', r);
    assert.equal(ids(r.data), ids(times), as.username);
    assert.is(r.response.headers.get('x-total-count'), '3');
  }
  assert.equal(
    (await list(w.repo, {}, w.p.owner.auth)).data!.map((t) => [t.issue!.number, t.user_name]),
    [[w.issue.number, w.p.writer.username], [w.readersIssue.number, w.p.reader.username], [w.issue.number, w.p.owner.username]],
  );
});

test('user, since and before filter; a reader sees only their own and may not name another user (403)', async () => {
  assert.equal(ids((await list(w.repo, { user: w.p.owner.username }, w.p.writer.auth)).data), [times[2]!.id]);
  assert.equal(ids((await list(w.repo, { since: '2024-03-02T00:00:00Z' }, w.p.writer.auth)).data), [times[1]!.id, times[2]!.id]);
  assert.equal(ids((await list(w.repo, { before: '2024-03-02T00:00:00Z' }, w.p.writer.auth)).data), [times[0]!.id, times[1]!.id]);
  assert.equal(ids((await list(w.repo, {}, w.p.reader.auth)).data), [times[1]!.id]);
  const r = await list(w.repo, { user: w.p.writer.username }, w.p.reader.auth);
  assert.is(r.response.status, 403);
  assertSpec('repoTrackedTimes', r);
  assert.is(messageOf(r.error), 'query by user not allowed; not enough rights');
  assertEmpty404(await list(w.repo, { user: 'nobody-here' }, w.p.writer.auth), 'unknown user');
  const bad = await list(w.repo, { since: 'soon' }, w.p.writer.auth);
  assert.is(bad.response.status, 422);
  assertSpec('repoTrackedTimes', bad);
});

test('times on pull requests are listed only while the caller can read pull requests', async () => {
  const repo = { ...(await userRepo(app, w.p.owner, { auto_init: true })) };
  const r: Repo = { ...repo, path: pathOf(repo) };
  await addCollaborator(app, repo, w.p.writer, 'write');
  await patch(app, repo, w.p.owner, addFile('a.txt', ['a']), { newBranch: 'feature' });
  const pull = await openPull(app, repo, w.p.owner, 'feature');
  const onPull = await tracked(app, r, pull.number, w.p.writer, { time: 42 });
  assert.equal(ids((await list(r, {}, w.p.writer.auth)).data), [onPull.id]);
  await editRepo(app, r, { has_pull_requests: false });
  const hidden = await list(r, {}, w.p.writer.auth);
  assert.equal(hidden.data, []);
  assert.is(hidden.response.headers.get('x-total-count'), '0');
});

test('400: the tracker is off; 404: issues off or a hidden repository; 401: anonymous', async () => {
  const off = await anotherRepo(app, w);
  await setTracker(app, off.repo, false);
  const r = await list(off.repo, {}, w.p.owner.auth);
  assert.is(r.response.status, 400);
  assertSpec('repoTrackedTimes', r);
  assert.equal(r.error, { message: 'time tracking disabled', url: swaggerOf(app) });
  const noIssues = await anotherRepo(app, w);
  await editRepo(app, noIssues.repo, { has_issues: false });
  assertEmpty404(await list(noIssues.repo, {}, w.p.owner.auth), 'issues off');
  const priv = await anotherRepo(app, w, { private: true });
  assertEmpty404(await list(priv.repo, {}, w.p.outsider.auth), 'outsider');
  const anon = await list(w.repo, {});
  assert.is(anon.response.status, 401);
  assertSpec('repoTrackedTimes', anon);
});

test.run();
