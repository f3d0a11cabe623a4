import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, editRepo, eventComments, newIssue, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { eventsOf } from '../../helpers/events.js';
import { labelCounters, labelNamesOf, newOrgLabel, orgWithRepo } from '../../helpers/labels.js';
import { messageOf, swaggerOf } from '../../helpers/repos.js';
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

const add = (repo: Repo, index: number, labels: Array<number | string>, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/issues/{index}/labels', { params: { path: { ...repo.path, index } }, body: { labels } });

test('200: a writer adds labels by id and by name; the answer is all the issue\'s labels; counters, comments and the event follow', async () => {
  const [bug, feature, other] = await Promise.all([newLabel(app, pub, p.owner, { name: 'bug' }), newLabel(app, pub, p.owner, { name: 'feature' }), newLabel(app, priv, p.owner, { name: 'elsewhere' })]);
  const issue = await newIssue(app, pub, p.reader);
  const r = await add(pub, issue.number, [bug.id, other.id], p.writer.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('issueAddLabel', r);
  assert.equal(r.data, [bug], 'a label of another repository is ignored');
  const byName = await add(pub, issue.number, ['feature', 'no such label'], p.owner.auth);
  assert.is(byName.response.status, 200);
  assert.equal(byName.data!.map((l) => l.id), [bug.id, feature.id]);
  assert.equal(await labelCounters(app, bug.id), [1, 0]);
  assert.equal(await labelCounters(app, feature.id), [1, 0]);
  const again = await add(pub, issue.number, [bug.id], p.admin.auth);
  assert.is(again.response.status, 200, 'site admin; adding a present label changes nothing');
  assert.equal((await eventComments(app, issue.id, 'label')).map((c) => [c.newValue, c.body]), [[String(bug.id), '1'], [String(feature.id), '1']]);
  const kinds = (await eventsOf(app, pub.id)).kinds.filter((k) => k.startsWith('issue_label'));
  assert.equal(kinds, ['issue_label/label_updated', 'issue_label/label_updated']);
  const got = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...pub.path, index: issue.number } } });
  assert.equal(got.data!.labels, byName.data, 'GET issue shows the same labels');
});

test('200: an exclusive scoped label replaces the issue\'s label of the same scope; of two given the last wins', async () => {
  const [high, low, mid, plain] = await Promise.all([
    newLabel(app, pub, p.owner, { name: 'prio/high', exclusive: true }),
    newLabel(app, pub, p.owner, { name: 'prio/low', exclusive: true }),
    newLabel(app, pub, p.owner, { name: 'prio/mid', exclusive: true }),
    newLabel(app, pub, p.owner, { name: 'prio/any' }),
  ]);
  const issue = await newIssue(app, pub, p.owner, { labels: [high.id, plain.id] });
  const r = await add(pub, issue.number, [low.id], p.writer.auth);
  assert.equal(r.data!.map((l) => l.name), ['prio/any', 'prio/low']);
  const two = await add(pub, issue.number, [high.id, mid.id], p.writer.auth);
  assert.equal(two.data!.map((l) => l.name), ['prio/any', 'prio/mid']);
  assert.equal(await labelCounters(app, high.id), [0, 0]);
  assert.equal(await labelCounters(app, low.id), [0, 0]);
  assert.equal(await labelCounters(app, mid.id), [1, 0]);
});

test('200: organization labels on an organization repository\'s issue, by id and by name; closed issues counted', async () => {
  const { w, repo } = await orgWithRepo(app);
  const [orgLabel, byName] = await Promise.all([newOrgLabel(app, w.name, w.owner, { name: 'org-wide' }), newOrgLabel(app, w.name, w.owner, { name: 'org-named' })]);
  const issue = await newIssue(app, repo, w.owner);
  await editIssue(app, repo, issue.number, w.owner, { state: 'closed' });
  const r = await add(repo, issue.number, [orgLabel.id], w.teamAdmin.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('issueAddLabel', r);
  assert.is(r.data![0]!.url, `${app.config.rootUrl}api/v1/orgs/${w.name}/labels/${orgLabel.id}`);
  assert.equal((await add(repo, issue.number, ['org-named'], w.owner.auth)).data!.map((l) => l.id), [byName.id, orgLabel.id]);
  assert.equal(await labelCounters(app, orgLabel.id), [1, 1]);
  const userIssue = await newIssue(app, pub, p.owner);
  assert.equal((await add(pub, userIssue.number, [orgLabel.id], p.owner.auth)).data, [], 'not on another owner\'s repository');
});

test('400: ids and names mixed', async () => {
  const issue = await newIssue(app, pub, p.owner);
  const r = await add(pub, issue.number, [1, 'bug'], p.writer.auth);
  assert.is(r.response.status, 400);
  assertSpec('issueAddLabel', r);
  assert.equal(r.error, { message: 'labels should be an array of strings or integers', url: swaggerOf(app) });
});

test('403: a reader, an outsider of a public repository; 401 anonymous; 403 a token without write:issue', async () => {
  const label = await newLabel(app, pub, p.owner);
  const issue = await newIssue(app, pub, p.reader);
  for (const [who, as] of [['reader (poster)', p.reader], ['outsider', p.outsider]] as const) {
    const r = await add(pub, issue.number, [label.id], as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('issueAddLabel', r);
    assert.is(messageOf(r.error), 'write permission is required');
  }
  const anon = await add(pub, issue.number, [label.id]);
  assert.is(anon.response.status, 401);
  const scoped = await add(pub, issue.number, [label.id], await app.token(p.writer, ['read:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(await labelNamesOf(app, pub, issue.number, p.owner), []);
});

test('404: a private repository for an outsider, an unknown issue; 423: an archived repository', async () => {
  const issue = await newIssue(app, priv, p.owner);
  assertEmpty404(await add(priv, issue.number, [1], p.outsider.auth), 'outsider');
  const unknown = await add(pub, 9999, [1], p.writer.auth);
  assertEmpty404(unknown, 'unknown issue');
  assertSpec('issueAddLabel', unknown);
  const repo = await sharedRepo(app, p);
  const inArchived = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const r = await add(repo, inArchived.number, [1], p.writer.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueAddLabel', r);
});

test('422: a label that is neither an id nor a name', async () => {
  const issue = await newIssue(app, pub, p.owner);
  const r = await app.client(p.writer.auth).POST('/repos/{owner}/{repo}/issues/{index}/labels', {
    params: { path: { ...pub.path, index: issue.number } }, body: { labels: [true as unknown as number] },
  });
  assert.is(r.response.status, 422);
  assertSpec('issueAddLabel', r);
});

test.run();
