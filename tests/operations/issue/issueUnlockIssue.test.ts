import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, eventComments, getIssue, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  pub = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

const lock = (index: number) => app.client(p.owner.auth).PUT('/repos/{owner}/{repo}/issues/{index}/lock', { params: { path: { ...pub.path, index } }, body: {} });
const unlock = (index: number, auth?: string) => app.client(auth).DELETE('/repos/{owner}/{repo}/issues/{index}/lock', { params: { path: { ...pub.path, index } } });

test('204: a writer unlocks; an unlock event once; readers comment again', async () => {
  const i = await newIssue(app, pub, p.reader);
  await lock(i.number);
  const r = await unlock(i.number, p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueUnlockIssue', r);
  assert.is((await getIssue(app, pub, i.number)).is_locked, false);
  assert.is((await unlock(i.number, p.writer.auth)).response.status, 204, 'again');
  assert.is((await eventComments(app, i.id, 'unlock')).length, 1);
  const c = await app.client(p.reader.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...pub.path, index: i.number } }, body: { body: 'back' } });
  assert.is(c.response.status, 201);
});

test('403 reader; 401 anonymous; 404 missing', async () => {
  const i = await newIssue(app, pub, p.reader);
  await lock(i.number);
  const r = await unlock(i.number, p.reader.auth);
  assert.is(r.response.status, 403);
  assertSpec('issueUnlockIssue', r);
  assert.is((await getIssue(app, pub, i.number)).is_locked, true);
  assert.is((await unlock(i.number)).response.status, 401);
  assertEmpty404(await unlock(99_999, p.owner.auth));
});

test.run();
