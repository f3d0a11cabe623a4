import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, people, sharedRepo, type People } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('200: everyone with a place who can read pull requests, the caller excepted, sorted', async () => {
  const repo = await sharedRepo(app, p);
  const all = [p.owner.username, p.reader.username, p.writer.username].sort();
  const anon = await app.client().GET('/repos/{owner}/{repo}/reviewers', { params: { path: repo.path } });
  assert.is(anon.response.status, 200);
  assertSpec('repoGetReviewers', anon);
  assert.equal(anon.data!.map((u) => u.login), all);
  const mine = await app.client(p.writer.auth).GET('/repos/{owner}/{repo}/reviewers', { params: { path: repo.path } });
  assert.equal(mine.data!.map((u) => u.login), all.filter((n) => n !== p.writer.username));
});

test('404: private for an outsider', async () => {
  const priv = await sharedRepo(app, p, { private: true });
  const r = await app.client(p.outsider.auth).GET('/repos/{owner}/{repo}/reviewers', { params: { path: priv.path } });
  assertEmpty404(r);
  assertSpec('repoGetReviewers', r);
});

test.run();
