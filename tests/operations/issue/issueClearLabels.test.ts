import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, editRepo, eventComments, newIssue, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { eventsOf } from '../../helpers/events.js';
import { labelCounters, labelNamesOf } from '../../helpers/labels.js';
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

const clear = (repo: Repo, index: number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/issues/{index}/labels', { params: { path: { ...repo.path, index } } });

test('204: writers clear every label; counters exact, removal comments and label_cleared recorded', async () => {
  const [a, b] = await Promise.all([newLabel(app, pub, p.owner, { name: 'a' }), newLabel(app, pub, p.owner, { name: 'b' })]);
  const issue = await newIssue(app, pub, p.owner, { labels: [a.id, b.id] });
  await editIssue(app, pub, issue.number, p.owner, { state: 'closed' });
  assert.equal(await labelCounters(app, a.id), [1, 1]);
  const r = await clear(pub, issue.number, p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueClearLabels', r);
  assert.equal(await labelNamesOf(app, pub, issue.number, p.owner), []);
  assert.equal(await labelCounters(app, a.id), [0, 0]);
  assert.equal((await eventComments(app, issue.id, 'label')).filter((c) => c.body === '').map((c) => Number(c.newValue)).sort(), [a.id, b.id].sort());
  assert.is((await clear(pub, issue.number, p.admin.auth)).response.status, 204, 'nothing left to clear');
  assert.equal((await eventsOf(app, pub.id)).kinds.filter((k) => k.startsWith('issue_label')), ['issue_label/label_cleared']);
});

test('403: a reader and an outsider; 401: anonymous', async () => {
  const label = await newLabel(app, pub, p.owner);
  const issue = await newIssue(app, pub, p.owner, { labels: [label.id] });
  for (const [who, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await clear(pub, issue.number, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('issueClearLabels', r);
  }
  assert.is((await clear(pub, issue.number)).response.status, 401);
  assert.equal(await labelNamesOf(app, pub, issue.number, p.owner), [label.name]);
});

test('404: a private repository for an outsider, an unknown issue; 423: an archived repository', async () => {
  const issue = await newIssue(app, priv, p.owner);
  assertEmpty404(await clear(priv, issue.number, p.outsider.auth), 'outsider');
  assertEmpty404(await clear(pub, 9999, p.writer.auth), 'unknown issue');
  const repo = await sharedRepo(app, p);
  const archived = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const r = await clear(repo, archived.number, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueClearLabels', r);
});

test.run();
