import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, type Repo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, issueTimes, setTracker, timeWorld, tracked, type TimeWorld } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;

const del = (repo: Repo, index: number, id: number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/issues/{index}/times/{id}', { params: { path: { ...repo.path, index, id } } });

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
});
test.after(async () => {
  await app.close();
});

test('204: the user who tracked it deletes one time; the others stay; deleting it again is 404', async () => {
  const a = await tracked(app, w.repo, w.issue.number, w.p.writer, { time: 10 });
  const b = await tracked(app, w.repo, w.issue.number, w.p.writer, { time: 20 });
  const r = await del(w.repo, w.issue.number, a.id, w.p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueDeleteTime', r);
  assert.equal((await issueTimes(app, w.repo, w.issue.number, w.p.writer)).map((t) => t.id), [b.id]);
  assertEmpty404(await del(w.repo, w.issue.number, a.id, w.p.writer.auth), 'already deleted');
});

test('403: someone else’s time, even for the repository owner; the site admin may delete it', async () => {
  const t = await tracked(app, w.repo, w.issue.number, w.p.writer, { time: 10 });
  const r = await del(w.repo, w.issue.number, t.id, w.p.owner.auth);
  assert.is(r.response.status, 403);
  assertSpec('issueDeleteTime', r);
  assert.is((await del(w.repo, w.issue.number, t.id, w.p.admin.auth)).response.status, 204);
});

test('404: a time of another issue through this one; an unknown id; a hidden repository', async () => {
  const t = await tracked(app, w.repo, w.readersIssue.number, w.p.writer, { time: 10 });
  const r = await del(w.repo, w.issue.number, t.id, w.p.writer.auth);
  assertEmpty404(r, 'other issue');
  assertSpec('issueDeleteTime', r);
  assert.equal((await issueTimes(app, w.repo, w.readersIssue.number, w.p.writer)).map((x) => x.id), [t.id], 'still there');
  assertEmpty404(await del(w.repo, w.issue.number, 987654, w.p.writer.auth), 'unknown id');
  const priv = await anotherRepo(app, w, { private: true });
  const pt = await tracked(app, priv.repo, priv.issue.number, w.p.writer, { time: 10 });
  assertEmpty404(await del(priv.repo, priv.issue.number, pt.id, w.p.outsider.auth), 'outsider');
});

test('400: the tracker is off; 423: archived; 401: anonymous', async () => {
  const off = await anotherRepo(app, w);
  const t = await tracked(app, off.repo, off.issue.number, w.p.writer, { time: 10 });
  await setTracker(app, off.repo, false);
  const r = await del(off.repo, off.issue.number, t.id, w.p.writer.auth);
  assert.is(r.response.status, 400);
  assertSpec('issueDeleteTime', r);
  const archived = await anotherRepo(app, w);
  const at = await tracked(app, archived.repo, archived.issue.number, w.p.writer, { time: 10 });
  await editRepo(app, archived.repo, { archived: true });
  assert.is((await del(archived.repo, archived.issue.number, at.id, w.p.writer.auth)).response.status, 423);
  const anon = await del(w.repo, w.issue.number, t.id);
  assert.is(anon.response.status, 401);
  assertSpec('issueDeleteTime', anon);
});

test.run();
