import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, getIssue, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
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

const set = (index: number, due_date: string | null, auth?: string) =>
  app.client(auth).POST('/repos/{owner}/{repo}/issues/{index}/deadline', { params: { path: { ...pub.path, index } }, body: { due_date } });

test('201: a writer sets the end of that day; the issue shows it; the zero time and null remove it', async () => {
  const i = await newIssue(app, pub, p.reader);
  const r = await set(i.number, '2030-05-06T08:00:00Z', p.writer.auth);
  assert.is(r.response.status, 201);
  assertSpec('issueEditIssueDeadline', r);
  assert.is(r.data!.due_date, '2030-05-06T23:59:59Z');
  assert.is((await getIssue(app, pub, i.number)).due_date, '2030-05-06T23:59:59Z');
  const zero = await set(i.number, '0001-01-01T00:00:00Z', p.owner.auth);
  assert.is(zero.response.status, 201);
  assert.is(zero.data!.due_date, null);
  assert.is((await getIssue(app, pub, i.number)).due_date, null);
  await set(i.number, '2030-05-06T08:00:00Z', p.owner.auth);
  assert.is((await set(i.number, null, p.owner.auth)).data!.due_date, null);
});

test('403: a reader (the poster too); 401; 404; 422 missing or bad date', async () => {
  const i = await newIssue(app, pub, p.reader);
  const r = await set(i.number, '2030-01-01T00:00:00Z', p.reader.auth);
  assert.is(r.response.status, 403);
  assertSpec('issueEditIssueDeadline', r);
  assert.is((await set(i.number, '2030-01-01T00:00:00Z')).response.status, 401);
  assertEmpty404(await set(99_999, '2030-01-01T00:00:00Z', p.owner.auth));
  const bad = await set(i.number, 'soon', p.owner.auth);
  assert.is(bad.response.status, 422);
  assertSpec('issueEditIssueDeadline', bad);
});

test.run();
