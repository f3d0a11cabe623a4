import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, eventComments, newIssue, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { eventsOf } from '../../helpers/events.js';
import { labelCounters, labelNamesOf } from '../../helpers/labels.js';
import { swaggerOf } from '../../helpers/repos.js';
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

const put = (repo: Repo, index: number, labels: Array<number | string> | undefined, authorization?: string) =>
  app.client(authorization).PUT('/repos/{owner}/{repo}/issues/{index}/labels', { params: { path: { ...repo.path, index } }, body: labels ? { labels } : {} });

test('200: sets exactly the given labels (ids or names); counters, label comments and one event per change', async () => {
  const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => newLabel(app, pub, p.owner, { name })));
  const issue = await newIssue(app, pub, p.owner, { labels: [a!.id, b!.id] });
  const r = await put(pub, issue.number, [b!.id, c!.id], p.writer.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('issueReplaceLabels', r);
  assert.equal(r.data, [b, c]);
  assert.equal(await labelCounters(app, a!.id), [0, 0]);
  assert.equal(await labelCounters(app, c!.id), [1, 0]);
  const same = await put(pub, issue.number, ['c', 'b'], p.owner.auth);
  assert.equal(same.data!.map((l) => l.name), ['b', 'c'], 'by name; the same set changes nothing');
  const removedAdded = (await eventComments(app, issue.id, 'label')).map((x) => [x.newValue, x.body]);
  assert.equal(removedAdded, [[String(a!.id), '1'], [String(b!.id), '1'], [String(a!.id), ''], [String(c!.id), '1']]);
  const emptied = await put(pub, issue.number, [], p.admin.auth);
  assert.equal(emptied.data, []);
  assert.equal(await labelCounters(app, b!.id), [0, 0]);
  assert.equal((await eventsOf(app, pub.id)).kinds.filter((k) => k.startsWith('issue_label')), ['issue_label/label_updated', 'issue_label/label_updated']);
  assert.equal((await put(pub, issue.number, undefined, p.writer.auth)).data, [], 'labels left out: none');
});

test('200: of several labels of one exclusive scope the last one given stays', async () => {
  const [x, y] = await Promise.all([newLabel(app, pub, p.owner, { name: 'kind/x', exclusive: true }), newLabel(app, pub, p.owner, { name: 'kind/y', exclusive: true })]);
  const issue = await newIssue(app, pub, p.owner);
  assert.equal((await put(pub, issue.number, [y.id, x.id], p.writer.auth)).data, [x]);
});

test('400: ids and names mixed; 403: a reader; 401: anonymous', async () => {
  const issue = await newIssue(app, pub, p.reader);
  const mixed = await put(pub, issue.number, ['a', 1], p.writer.auth);
  assert.is(mixed.response.status, 400);
  assert.equal(mixed.error, { message: 'labels should be an array of strings or integers', url: swaggerOf(app) });
  const reader = await put(pub, issue.number, [], p.reader.auth);
  assert.is(reader.response.status, 403);
  assertSpec('issueReplaceLabels', reader);
  assert.is((await put(pub, issue.number, [])).response.status, 401);
});

test('404: a private repository for an outsider, an unknown issue; 423: an archived repository', async () => {
  const issue = await newIssue(app, priv, p.owner);
  assertEmpty404(await put(priv, issue.number, [], p.outsider.auth), 'outsider');
  assertEmpty404(await put(pub, 9999, [], p.writer.auth), 'unknown issue');
  const repo = await sharedRepo(app, p);
  const label = await newLabel(app, repo, p.owner);
  const archived = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const r = await put(repo, archived.number, [label.id], p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueReplaceLabels', r);
  assert.equal(await labelNamesOf(app, repo, archived.number, p.owner), []);
});

test.run();
