import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, backdateStopwatch, issueTimes, stopwatch, timeWorld, type TimeWorld } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
});
test.after(async () => {
  await app.close();
});

test('204: cancelling drops the stopwatch and records nothing; cancelling again is 409', async () => {
  await stopwatch(app, 'start', w.repo, w.issue.number, w.p.writer.auth);
  await backdateStopwatch(app, w.p.writer.id, 600);
  const r = await stopwatch(app, 'delete', w.repo, w.issue.number, w.p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueDeleteStopWatch', r);
  assert.equal(await issueTimes(app, w.repo, w.issue.number, w.p.writer), []);
  assert.equal((await app.client(w.p.writer.auth).GET('/user/stopwatches')).data, []);
  const again = await stopwatch(app, 'delete', w.repo, w.issue.number, w.p.writer.auth);
  assert.is(again.response.status, 409);
  assertSpec('issueDeleteStopWatch', again);
  assert.is(messageOf(again.error), 'cannot cancel a non-existent stopwatch');
});

test('403: a reader; 423: archived; 404: hidden repository; 401: anonymous', async () => {
  const r = await stopwatch(app, 'delete', w.repo, w.readersIssue.number, w.p.reader.auth);
  assert.is(r.response.status, 403);
  assertSpec('issueDeleteStopWatch', r);
  const archived = await anotherRepo(app, w);
  await stopwatch(app, 'start', archived.repo, archived.issue.number, w.p.owner.auth);
  await editRepo(app, archived.repo, { archived: true });
  const a = await stopwatch(app, 'delete', archived.repo, archived.issue.number, w.p.owner.auth);
  assert.is(a.response.status, 423);
  assertSpec('issueDeleteStopWatch', a);
  const priv = await anotherRepo(app, w, { private: true });
  assertEmpty404(await stopwatch(app, 'delete', priv.repo, priv.issue.number, w.p.outsider.auth), 'outsider');
  const anon = await stopwatch(app, 'delete', w.repo, w.issue.number);
  assert.is(anon.response.status, 401);
  assertSpec('issueDeleteStopWatch', anon);
});

test.run();
