import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo } from '../../helpers/issues.js';
import { messageOf, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { addTime, anotherRepo, issueTimes, setTracker, timeWorld, type TimeWorld } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
});
test.after(async () => {
  await app.close();
});

test('200: a writer records time; the answer is the tracked time with its issue, and the issue lists it', async () => {
  const t0 = Math.floor(Date.now() / 1000) * 1000;
  const r = await addTime(app, w.repo, w.issue.number, { time: 3600 }, w.p.writer.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('issueAddTime', r);
  const t = r.data!;
  assert.equal({ ...t, issue: t.issue!.number }, { id: t.id, created: t.created, time: 3600, user_id: w.p.writer.id, user_name: w.p.writer.username, issue_id: w.issue.id, issue: w.issue.number });
  assert.ok(Date.parse(t.created) >= t0 && Date.parse(t.created) <= Date.now(), t.created);
  assert.is(t.issue!.title, w.issue.title);
  const listed = await issueTimes(app, w.repo, w.issue.number, w.p.writer);
  assert.equal(listed.map((x) => x.id), [t.id]);
  assert.equal(listed[0], t);
});

test('200: `created` is kept (to the second); the owner and the site admin may track too', async () => {
  const r = await addTime(app, w.repo, w.issue.number, { time: 60, created: '2024-02-03T04:05:06.789Z' }, w.p.owner.auth);
  assert.is(r.response.status, 200);
  assert.is(r.data!.created, '2024-02-03T04:05:06Z');
  const a = await addTime(app, w.repo, w.issue.number, { time: 1 }, w.p.admin.auth);
  assert.is(a.response.status, 200);
  assert.is(a.data!.user_name, w.p.admin.username);
});

test('200/403: a reader may track time on the issue they posted, not on others, unless the repository lets anyone track', async () => {
  const own = await addTime(app, w.repo, w.readersIssue.number, { time: 5 }, w.p.reader.auth);
  assert.is(own.response.status, 200, JSON.stringify(own.error));
  const other = await addTime(app, w.repo, w.issue.number, { time: 5 }, w.p.reader.auth);
  assert.is(other.response.status, 403);
  assertSpec('issueAddTime', other);
  const outsider = await addTime(app, w.repo, w.issue.number, { time: 5 }, w.p.outsider.auth);
  assert.is(outsider.response.status, 403);
  const open = await anotherRepo(app, w);
  await setTracker(app, open.repo, true, false);
  for (const as of [w.p.reader, w.p.outsider]) {
    const r = await addTime(app, open.repo, open.issue.number, { time: 7 }, as.auth);
    assert.is(r.response.status, 200, `${as.username}: ${JSON.stringify(r.error)}`);
    assert.is(r.data!.user_name, as.username);
  }
});

test('user_name: repository and site administrators record for someone else; others record their own; an unknown user is 422', async () => {
  const byOwner = await addTime(app, w.repo, w.issue.number, { time: 11, user_name: w.p.writer.username }, w.p.owner.auth);
  assert.is(byOwner.response.status, 200);
  assert.equal([byOwner.data!.user_name, byOwner.data!.user_id], [w.p.writer.username, w.p.writer.id]);
  const byAdmin = await addTime(app, w.repo, w.issue.number, { time: 12, user_name: w.p.reader.username.toUpperCase() }, w.p.admin.auth);
  assert.is(byAdmin.data!.user_name, w.p.reader.username);
  const byWriter = await addTime(app, w.repo, w.issue.number, { time: 13, user_name: w.p.owner.username }, w.p.writer.auth);
  assert.is(byWriter.response.status, 200);
  assert.is(byWriter.data!.user_name, w.p.writer.username, 'a writer cannot record for others');
  const unknown = await addTime(app, w.repo, w.issue.number, { time: 14, user_name: 'nobody-here' }, w.p.owner.auth);
  assert.is(unknown.response.status, 422);
  assertSpec('issueAddTime', unknown);
  assert.match(messageOf(unknown.error), 'nobody-here');
});

test('422: time missing, zero or negative; a bad created', async () => {
  for (const body of [{}, { time: 0 }, { time: -5 }, { time: 1.5 }, { time: 10, created: 'yesterday' }]) {
    const r = await addTime(app, w.repo, w.issue.number, body as never, w.p.writer.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('issueAddTime', r);
    assert.equal(Object.keys(r.error as object).sort(), ['message', 'url']);
  }
});

test('400: the time tracker is off; 423: the repository is archived', async () => {
  const off = await anotherRepo(app, w);
  await setTracker(app, off.repo, false);
  const r = await addTime(app, off.repo, off.issue.number, { time: 10 }, w.p.writer.auth);
  assert.is(r.response.status, 400);
  assertSpec('issueAddTime', r);
  assert.equal(r.error, { message: 'time tracking disabled', url: swaggerOf(app) });
  const archived = await anotherRepo(app, w);
  await editRepo(app, archived.repo, { archived: true });
  const a = await addTime(app, archived.repo, archived.issue.number, { time: 10 }, w.p.writer.auth);
  assert.is(a.response.status, 423);
  assertSpec('issueAddTime', a);
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const anon = await addTime(app, w.repo, w.issue.number, { time: 10 });
  assert.is(anon.response.status, 401);
  assertSpec('issueAddTime', anon);
  const r = await addTime(app, w.repo, w.issue.number, { time: 10 }, await app.token(w.p.writer, ['read:issue']));
  assert.is(r.response.status, 403);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
});

test('404: an unknown issue; a private repository for an outsider', async () => {
  assertEmpty404(await addTime(app, w.repo, 9999, { time: 10 }, w.p.writer.auth), 'unknown issue');
  const priv = await anotherRepo(app, w, { private: true });
  const r = await addTime(app, priv.repo, priv.issue.number, { time: 10 }, w.p.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('issueAddTime', r);
});

test.run();
