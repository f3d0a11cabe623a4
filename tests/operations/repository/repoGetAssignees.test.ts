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

test('200: the owner and the writers, sorted; not readers or outsiders; each may really be assigned', async () => {
  const repo = await sharedRepo(app, p);
  const r = await app.client().GET('/repos/{owner}/{repo}/assignees', { params: { path: repo.path } });
  assert.is(r.response.status, 200);
  assertSpec('repoGetAssignees', r);
  const names = r.data!.map((u) => u.login);
  assert.equal(names, [p.owner.username, p.writer.username].sort());
  const issue = await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: repo.path }, body: { title: 't', assignees: names } });
  assert.is(issue.response.status, 201);
});

test('404: a private repository for an outsider; 200 for its reader', async () => {
  const priv = await sharedRepo(app, p, { private: true });
  const r = await app.client(p.outsider.auth).GET('/repos/{owner}/{repo}/assignees', { params: { path: priv.path } });
  assertEmpty404(r);
  assertSpec('repoGetAssignees', r);
  assert.is((await app.client(p.reader.auth).GET('/repos/{owner}/{repo}/assignees', { params: { path: priv.path } })).response.status, 200);
  const t = await app.client(await app.token(p.reader, ['read:issue'])).GET('/repos/{owner}/{repo}/assignees', { params: { path: priv.path } });
  assert.is(t.response.status, 403, 'a token without read:repository');
});

test.run();
