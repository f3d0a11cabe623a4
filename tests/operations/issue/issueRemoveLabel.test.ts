import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, eventComments, newIssue, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { eventsOf } from '../../helpers/events.js';
import { labelCounters, labelNamesOf } from '../../helpers/labels.js';
import { messageOf } from '../../helpers/repos.js';
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

const remove = (repo: Repo, index: number, id: number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/issues/{index}/labels/{id}', { params: { path: { ...repo.path, index, id } } });

test('204: a writer removes one label; counter, comment and label_updated; a label the issue lacks changes nothing', async () => {
  const [a, b] = await Promise.all([newLabel(app, pub, p.owner, { name: 'a' }), newLabel(app, pub, p.owner, { name: 'b' })]);
  const issue = await newIssue(app, pub, p.owner, { labels: [a.id, b.id] });
  const r = await remove(pub, issue.number, a.id, p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueRemoveLabel', r);
  assert.equal(await labelNamesOf(app, pub, issue.number, p.owner), ['b']);
  assert.equal(await labelCounters(app, a.id), [0, 0]);
  assert.equal(await labelCounters(app, b.id), [1, 0]);
  assert.equal((await eventComments(app, issue.id, 'label')).filter((c) => c.body === '').map((c) => Number(c.newValue)), [a.id]);
  assert.is((await remove(pub, issue.number, a.id, p.owner.auth)).response.status, 204, 'already removed');
  assert.equal((await eventsOf(app, pub.id)).kinds.filter((k) => k.startsWith('issue_label')), ['issue_label/label_updated']);
});

test('422: no label has this id', async () => {
  const issue = await newIssue(app, pub, p.owner);
  const r = await remove(pub, issue.number, 999999, p.writer.auth);
  assert.is(r.response.status, 422);
  assertSpec('issueRemoveLabel', r);
  assert.is(messageOf(r.error), 'label does not exist [label_id: 999999]');
});

test('422: a label of another (private) repository is answered as a missing one, whoever asks', async () => {
  const issue = await newIssue(app, pub, p.owner);
  const other = await newLabel(app, priv, p.owner);
  for (const as of [p.writer, p.admin]) {
    const r = await remove(pub, issue.number, other.id, as.auth);
    assert.is(r.response.status, 422, as.username);
    assertSpec('issueRemoveLabel', r);
    assert.is(messageOf(r.error), `label does not exist [label_id: ${other.id}]`);
  }
});

test('403: a reader and an outsider; 401: anonymous', async () => {
  const label = await newLabel(app, pub, p.owner);
  const issue = await newIssue(app, pub, p.owner, { labels: [label.id] });
  for (const [who, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await remove(pub, issue.number, label.id, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('issueRemoveLabel', r);
  }
  assert.is((await remove(pub, issue.number, label.id)).response.status, 401);
  assert.equal(await labelCounters(app, label.id), [1, 0]);
});

test('404: a private repository for an outsider, an unknown issue; 423: an archived repository', async () => {
  const label = await newLabel(app, priv, p.owner);
  const issue = await newIssue(app, priv, p.owner, { labels: [label.id] });
  assertEmpty404(await remove(priv, issue.number, label.id, p.outsider.auth), 'outsider');
  assertEmpty404(await remove(pub, 9999, label.id, p.writer.auth), 'unknown issue');
  const repo = await sharedRepo(app, p);
  const l = await newLabel(app, repo, p.owner);
  const archived = await newIssue(app, repo, p.owner, { labels: [l.id] });
  await editRepo(app, repo, { archived: true });
  const r = await remove(repo, archived.number, l.id, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueRemoveLabel', r);
});

test.run();
