import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, getIssue, newIssue, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { labelCounters } from '../../helpers/labels.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const del = (repo: Repo, id: number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/labels/{id}', { params: { path: { ...repo.path, id } } });

test('204: a writer deletes a label; it leaves every issue, the others keep theirs; then 404', async () => {
  const [gone, kept] = await Promise.all([newLabel(app, pub, p.owner, { name: 'gone' }), newLabel(app, pub, p.owner, { name: 'kept' })]);
  const issue = await newIssue(app, pub, p.owner, { labels: [gone.id, kept.id] });
  const r = await del(pub, gone.id, p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueDeleteLabel', r);
  assert.equal((await getIssue(app, pub, issue.number)).labels.map((l) => l.name), ['kept']);
  assert.equal(await labelCounters(app, kept.id), [1, 0]);
  assertEmpty404(await del(pub, gone.id, p.writer.auth), 'deleted already');
  assert.is((await del(pub, kept.id, p.admin.auth)).response.status, 204, 'site admin');
});

test('403: a reader and an outsider; 401: anonymous', async () => {
  const label = await newLabel(app, pub, p.owner);
  for (const [who, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await del(pub, label.id, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('issueDeleteLabel', r);
  }
  assert.is((await del(pub, label.id)).response.status, 401);
  assert.is((await app.client().GET('/repos/{owner}/{repo}/labels/{id}', { params: { path: { ...pub.path, id: label.id } } })).response.status, 200);
});

test('404: a private repository for an outsider, a label of another repository; 423: an archived repository', async () => {
  const secret = await newLabel(app, priv, p.owner);
  assertEmpty404(await del(priv, secret.id, p.outsider.auth), 'outsider');
  const r = await del(pub, secret.id, p.owner.auth);
  assertEmpty404(r, 'another repository');
  assertSpec('issueDeleteLabel', r);
  const repo = await sharedRepo(app, p);
  const l = await newLabel(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const archived = await del(repo, l.id, p.owner.auth);
  assert.is(archived.response.status, 423);
  assertSpec('issueDeleteLabel', archived);
});

test.run();
