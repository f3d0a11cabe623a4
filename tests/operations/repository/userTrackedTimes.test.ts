import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, type Repo } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, setTracker, timeWorld, tracked, type TimeWorld, type TrackedTime } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;
let writers: TrackedTime[];

const list = (repo: Repo, user: string, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/times/{user}', { params: { path: { ...repo.path, user } } });

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
  writers = [
    await tracked(app, w.repo, w.issue.number, w.p.writer, { time: 10, created: '2024-03-01T00:00:00Z' }),
    await tracked(app, w.repo, w.readersIssue.number, w.p.writer, { time: 20, created: '2024-03-02T00:00:00Z' }),
  ];
  await tracked(app, w.repo, w.issue.number, w.p.owner, { time: 30 });
});
test.after(async () => {
  await app.close();
});

test('200: the user’s times in the repository, for the user, the repository owner and the site admin', async () => {
  for (const as of [w.p.writer, w.p.owner, w.p.admin]) {
    const r = await list(w.repo, w.p.writer.username, as.auth);
    assert.is(r.response.status, 200, as.username);
    assertSpec('userTrackedTimes', r);
    assert.equal(r.data!.map((t) => t.id), writers.map((t) => t.id));
    assert.is(r.response.headers.get('x-total-count'), '2');
  }
});

test('403: anyone else, a writer included; 404: an unknown user or a hidden repository', async () => {
  for (const as of [w.p.reader, w.p.outsider]) {
    const r = await list(w.repo, w.p.writer.username, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('userTrackedTimes', r);
    assert.is(messageOf(r.error), 'query by user not allowed; not enough rights');
  }
  assert.is((await list(w.repo, w.p.owner.username, w.p.writer.auth)).response.status, 403);
  assertEmpty404(await list(w.repo, 'nobody-here', w.p.owner.auth), 'unknown user');
  const priv = await anotherRepo(app, w, { private: true });
  assertEmpty404(await list(priv.repo, w.p.writer.username, w.p.outsider.auth), 'outsider');
});

test('400: the tracker is off; 401: anonymous', async () => {
  const off = await anotherRepo(app, w);
  await setTracker(app, off.repo, false);
  const r = await list(off.repo, w.p.writer.username, w.p.owner.auth);
  assert.is(r.response.status, 400);
  assertSpec('userTrackedTimes', r);
  const anon = await list(w.repo, w.p.writer.username);
  assert.is(anon.response.status, 401);
  assertSpec('userTrackedTimes', anon);
});

test.run();
