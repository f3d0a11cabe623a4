import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, newIssue, people, sharedRepo, type People } from '../../helpers/issues.js';
import { pinned, pinnedIssues, repoWithPulls } from '../../helpers/pins.js';
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

test('200: the pinned issues in pin order, not the pinned pull requests, anonymous on a public repository', async () => {
  const { repo, pulls } = await repoWithPulls(app, p, 1);
  const empty = await pinnedIssues(app, repo);
  assert.is(empty.response.status, 200);
  assert.equal(empty.data, []);
  const [a, b] = [await newIssue(app, repo, p.reader, { title: 'first' }), await newIssue(app, repo, p.reader, { title: 'second' })];
  await newIssue(app, repo, p.reader, { title: 'not pinned' });
  await pinned(app, repo, p.owner.auth, b.number, pulls[0]!, a.number);
  const r = await pinnedIssues(app, repo);
  assert.is(r.response.status, 200);
  assertSpec('repoListPinnedIssues', r);
  assert.equal(r.data!.map((i) => [i.title, i.pin_order]), [['second', 1], ['first', 2]]);
});

test('404: a private repository to an outsider (200 to a reader), issues switched off', async () => {
  const repo = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, repo, p.owner);
  await pinned(app, repo, p.owner.auth, i.number);
  assertEmpty404(await pinnedIssues(app, repo, p.outsider.auth));
  assertEmpty404(await pinnedIssues(app, repo));
  const r = await pinnedIssues(app, repo, p.reader.auth);
  assert.equal(r.data!.map((x) => x.number), [i.number]);
  await editRepo(app, repo, { has_issues: false });
  const off = await pinnedIssues(app, repo, p.owner.auth);
  assertEmpty404(off);
  assertSpec('repoListPinnedIssues', off);
});

test.run();
