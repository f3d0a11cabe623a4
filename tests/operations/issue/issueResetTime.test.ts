import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, type Repo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, issueTimes, setTracker, timeWorld, tracked, type TimeWorld } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;

const reset = (repo: Repo, index: number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/issues/{index}/times', { params: { path: { ...repo.path, index } } });

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
});
test.after(async () => {
  await app.close();
});

test('204: deletes every time the caller tracked on the issue and nobody else’s; 404 once there are none', async () => {
  const i = w.issue.number;
  await tracked(app, w.repo, i, w.p.writer, { time: 10 });
  await tracked(app, w.repo, i, w.p.writer, { time: 20 });
  const owners = await tracked(app, w.repo, i, w.p.owner, { time: 30 });
  const other = await tracked(app, w.repo, w.readersIssue.number, w.p.writer, { time: 40 });
  const r = await reset(w.repo, i, w.p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueResetTime', r);
  assert.equal((await issueTimes(app, w.repo, i, w.p.owner)).map((t) => t.id), [owners.id]);
  assert.equal((await issueTimes(app, w.repo, w.readersIssue.number, w.p.owner)).map((t) => t.id), [other.id], 'other issues keep theirs');
  const again = await reset(w.repo, i, w.p.writer.auth);
  assertEmpty404(again, 'nothing left');
  assertSpec('issueResetTime', again);
});

test('the poster may reset their own time; 403 for a reader on someone else’s issue', async () => {
  await tracked(app, w.repo, w.readersIssue.number, w.p.reader, { time: 10 });
  assert.is((await reset(w.repo, w.readersIssue.number, w.p.reader.auth)).response.status, 204);
  const r = await reset(w.repo, w.issue.number, w.p.reader.auth);
  assert.is(r.response.status, 403);
  assertSpec('issueResetTime', r);
});

test('400: the tracker is off; 423: archived; 401: anonymous; 404: unknown issue or hidden repository', async () => {
  const off = await anotherRepo(app, w);
  await tracked(app, off.repo, off.issue.number, w.p.writer, { time: 10 });
  await setTracker(app, off.repo, false);
  const r = await reset(off.repo, off.issue.number, w.p.writer.auth);
  assert.is(r.response.status, 400);
  assertSpec('issueResetTime', r);
  const archived = await anotherRepo(app, w);
  await tracked(app, archived.repo, archived.issue.number, w.p.writer, { time: 10 });
  await editRepo(app, archived.repo, { archived: true });
  const a = await reset(archived.repo, archived.issue.number, w.p.writer.auth);
  assert.is(a.response.status, 423);
  assertSpec('issueResetTime', a);
  const anon = await reset(w.repo, w.issue.number);
  assert.is(anon.response.status, 401);
  assertSpec('issueResetTime', anon);
  assertEmpty404(await reset(w.repo, 9999, w.p.writer.auth), 'unknown issue');
  const priv = await anotherRepo(app, w, { private: true });
  assertEmpty404(await reset(priv.repo, priv.issue.number, w.p.outsider.auth), 'outsider');
});

test.run();
