import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, newIssue, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { newOrgLabel, orgWithRepo } from '../../helpers/labels.js';
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

const get = (repo: Repo, index: number, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/issues/{index}/labels', { params: { path: { ...repo.path, index } } });

test('200: the issue\'s labels by name, for anonymous callers, readers and outsiders of a public repository', async () => {
  const [b, a] = await Promise.all([newLabel(app, pub, p.owner, { name: 'b-label' }), newLabel(app, pub, p.owner, { name: 'a-label' })]);
  const issue = await newIssue(app, pub, p.owner, { labels: [b.id, a.id] });
  for (const [who, auth] of [['anonymous', undefined], ['reader', p.reader.auth], ['outsider', p.outsider.auth]] as const) {
    const r = await get(pub, issue.number, auth);
    assert.is(r.response.status, 200, who);
    assertSpec('issueGetLabels', r);
    assert.equal(r.data, [a, b], who);
  }
  assert.equal((await get(pub, (await newIssue(app, pub, p.owner)).number)).data, [], 'an issue without labels');
});

test('200: an organization label carries the organization\'s URL', async () => {
  const { w, repo } = await orgWithRepo(app);
  const label = await newOrgLabel(app, w.name, w.owner);
  const issue = await newIssue(app, repo, w.owner, { labels: [label.id] });
  const r = await get(repo, issue.number);
  assertSpec('issueGetLabels', r);
  assert.equal(r.data, [label]);
});

test('404: a private repository for anonymous callers and outsiders, an unknown issue, issues switched off', async () => {
  const issue = await newIssue(app, priv, p.owner);
  assertEmpty404(await get(priv, issue.number), 'anonymous');
  const r = await get(priv, issue.number, p.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('issueGetLabels', r);
  assert.is((await get(priv, issue.number, p.reader.auth)).response.status, 200, 'reader of the private repository');
  assertEmpty404(await get(pub, 9999), 'unknown issue');
  const repo = await sharedRepo(app, p);
  const off = await newIssue(app, repo, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assertEmpty404(await get(repo, off.number, p.owner.auth), 'issues switched off');
});

test.run();
