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

const running = async (auth: string) => (await app.client(auth).GET('/user/stopwatches')).data!;

test('201: a writer starts a stopwatch; starting it again on the same issue is 409', async () => {
  const r = await stopwatch(app, 'start', w.repo, w.issue.number, w.p.writer.auth);
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  assertSpec('issueStartStopWatch', r);
  const [sw] = await running(w.p.writer.auth);
  assert.equal([sw!.issue_index, sw!.repo_name], [w.issue.number, w.repo.name]);
  const again = await stopwatch(app, 'start', w.repo, w.issue.number, w.p.writer.auth);
  assert.is(again.response.status, 409);
  assertSpec('issueStartStopWatch', again);
  assert.is(messageOf(again.error), 'cannot start a stopwatch again if it already exists');
  assert.is((await running(w.p.writer.auth)).length, 1);
});

test('201: starting one on another issue stops the running one and records its time there', async () => {
  await backdateStopwatch(app, w.p.writer.id, 125);
  const r = await stopwatch(app, 'start', w.repo, w.readersIssue.number, w.p.writer.auth);
  assert.is(r.response.status, 201);
  const [sw] = await running(w.p.writer.auth);
  assert.is(sw!.issue_index, w.readersIssue.number);
  const recorded = await issueTimes(app, w.repo, w.issue.number, w.p.writer);
  assert.is(recorded.length, 1);
  assert.ok(recorded[0]!.time >= 125 && recorded[0]!.time < 185, String(recorded[0]!.time));
  assert.is(recorded[0]!.user_name, w.p.writer.username);
});

test('many starts at once leave one stopwatch running (201 or 409 each, never 500)', async () => {
  const { repo, issue } = await anotherRepo(app, w);
  const answers = await Promise.all(Array.from({ length: 6 }, () => stopwatch(app, 'start', repo, issue.number, w.p.owner.auth)));
  const statuses = answers.map((a) => a.response.status).sort();
  assert.is(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
  assert.ok(statuses.every((s) => s === 201 || s === 409), JSON.stringify(statuses));
  assert.is((await running(w.p.owner.auth)).length, 1);
});

test('403: a reader, even on the issue they posted; an outsider; the tracker off', async () => {
  for (const [as, index] of [[w.p.reader, w.readersIssue.number], [w.p.outsider, w.issue.number]] as const) {
    const r = await stopwatch(app, 'start', w.repo, index, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('issueStartStopWatch', r);
  }
  const off = await anotherRepo(app, w);
  await setTracker(app, off.repo, false);
  assert.is((await stopwatch(app, 'start', off.repo, off.issue.number, w.p.writer.auth)).response.status, 403);
});

test('423: archived; 404: unknown issue or hidden repository; 401: anonymous', async () => {
  const archived = await anotherRepo(app, w);
  await editRepo(app, archived.repo, { archived: true });
  const a = await stopwatch(app, 'start', archived.repo, archived.issue.number, w.p.admin.auth);
  assert.is(a.response.status, 423);
  assertSpec('issueStartStopWatch', a);
  assertEmpty404(await stopwatch(app, 'start', w.repo, 9999, w.p.writer.auth), 'unknown issue');
  const priv = await anotherRepo(app, w, { private: true });
  assertEmpty404(await stopwatch(app, 'start', priv.repo, priv.issue.number, w.p.outsider.auth), 'outsider');
  const anon = await stopwatch(app, 'start', w.repo, w.issue.number);
  assert.is(anon.response.status, 401);
  assertSpec('issueStartStopWatch', anon);
});

test.run();
