import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, backdateStopwatch, issueTimes, setTracker, stopwatch, timeWorld, type TimeWorld } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
});
test.after(async () => {
  await app.close();
});

test('201: stopping records the seconds the stopwatch ran as the caller’s time; the stopwatch is gone', async () => {
  assert.is((await stopwatch(app, 'start', w.repo, w.issue.number, w.p.writer.auth)).response.status, 201);
  await backdateStopwatch(app, w.p.writer.id, 3725);
  const r = await stopwatch(app, 'stop', w.repo, w.issue.number, w.p.writer.auth);
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  assertSpec('issueStopStopWatch', r);
  const [t] = await issueTimes(app, w.repo, w.issue.number, w.p.writer);
  assert.ok(t && t.time >= 3725 && t.time < 3785, JSON.stringify(t));
  assert.is(t!.user_name, w.p.writer.username);
  assert.equal((await app.client(w.p.writer.auth).GET('/user/stopwatches')).data, []);
});

test('409: no stopwatch of the caller runs on the issue (none at all, or one on another issue)', async () => {
  const none = await stopwatch(app, 'stop', w.repo, w.issue.number, w.p.owner.auth);
  assert.is(none.response.status, 409);
  assertSpec('issueStopStopWatch', none);
  assert.is(messageOf(none.error), 'cannot stop a non-existent stopwatch');
  await stopwatch(app, 'start', w.repo, w.readersIssue.number, w.p.owner.auth);
  assert.is((await stopwatch(app, 'stop', w.repo, w.issue.number, w.p.owner.auth)).response.status, 409);
  assert.is((await app.client(w.p.owner.auth).GET('/user/stopwatches')).data!.length, 1, 'the other one keeps running');
});

test('stopped at once: nothing under a second is recorded; two stops at once record once', async () => {
  const { repo, issue } = await anotherRepo(app, w);
  await stopwatch(app, 'start', repo, issue.number, w.p.writer.auth);
  assert.is((await stopwatch(app, 'stop', repo, issue.number, w.p.writer.auth)).response.status, 201);
  assert.equal(await issueTimes(app, repo, issue.number, w.p.writer), []);
  await stopwatch(app, 'start', repo, issue.number, w.p.writer.auth);
  await backdateStopwatch(app, w.p.writer.id, 60);
  const both = await Promise.all([1, 2].map(() => stopwatch(app, 'stop', repo, issue.number, w.p.writer.auth)));
  assert.equal(both.map((b) => b.response.status).sort(), [201, 409]);
  assert.is((await issueTimes(app, repo, issue.number, w.p.writer)).length, 1);
});

test('403: a reader or the tracker off; 423: archived; 404; 401', async () => {
  const r = await stopwatch(app, 'stop', w.repo, w.readersIssue.number, w.p.reader.auth);
  assert.is(r.response.status, 403);
  assertSpec('issueStopStopWatch', r);
  const off = await anotherRepo(app, w);
  await stopwatch(app, 'start', off.repo, off.issue.number, w.p.admin.auth);
  await setTracker(app, off.repo, false);
  assert.is((await stopwatch(app, 'stop', off.repo, off.issue.number, w.p.admin.auth)).response.status, 403);
  const archived = await anotherRepo(app, w);
  await editRepo(app, archived.repo, { archived: true });
  assert.is((await stopwatch(app, 'stop', archived.repo, archived.issue.number, w.p.writer.auth)).response.status, 423);
  const priv = await anotherRepo(app, w, { private: true });
  assertEmpty404(await stopwatch(app, 'stop', priv.repo, priv.issue.number, w.p.outsider.auth), 'outsider');
  const anon = await stopwatch(app, 'stop', w.repo, w.issue.number);
  assert.is(anon.response.status, 401);
  assertSpec('issueStopStopWatch', anon);
});

test.run();
