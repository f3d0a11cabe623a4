import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, editRepo, newComment, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
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

const list = (repo: Repo, query: Record<string, string | number> = {}, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/comments', { params: { path: repo.path, query } });

test('200: text comments of every issue, oldest first, not events; the static path is not an issue index', async () => {
  const a = await newIssue(app, pub, p.owner);
  const b = await newIssue(app, pub, p.owner);
  const c1 = await newComment(app, pub, a.number, p.reader, 'one');
  const c2 = await newComment(app, pub, b.number, p.writer, 'two');
  await editIssue(app, pub, a.number, p.owner, { state: 'closed' });
  for (const auth of [undefined, p.outsider.auth]) {
    const r = await list(pub, {}, auth);
    assert.is(r.response.status, 200);
    assertSpec('issueGetRepoComments', r);
    assert.equal(r.data!.map((c) => c.id), [c1.id, c2.id]);
    assert.is(r.response.headers.get('x-total-count'), '2');
    assert.ok(r.data![1]!.issue_url.endsWith(`/issues/${b.number}`), 'each comment names its own issue');
  }
  const paged = await list(pub, { limit: 1, page: 2 });
  assert.equal(paged.data!.map((c) => c.id), [c2.id]);
  assert.match(paged.response.headers.get('link') ?? '', /rel="prev"/);
});

test('since and before filter on the update time', async () => {
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  const old = await newComment(app, repo, i.number, p.owner, 'old');
  await new Promise((r) => setTimeout(r, 1100));
  const cut = new Date().toISOString();
  const fresh = await newComment(app, repo, i.number, p.owner, 'new');
  assert.equal((await list(repo, { since: cut })).data!.map((c) => c.id), [fresh.id]);
  assert.equal((await list(repo, { before: cut })).data!.map((c) => c.id), [old.id]);
});

test('404: private for an outsider, issues and pulls disabled; 422: a bad date', async () => {
  const priv = await sharedRepo(app, p, { private: true });
  assertEmpty404(await list(priv, {}, p.outsider.auth));
  assert.is((await list(priv, {}, p.reader.auth)).response.status, 200);
  const off = await sharedRepo(app, p);
  await editRepo(app, off, { has_issues: false, has_pull_requests: false });
  assertEmpty404(await list(off, {}, p.owner.auth));
  const bad = await list(pub, { since: 'yesterday' });
  assert.is(bad.response.status, 422);
  assertSpec('issueGetRepoComments', bad);
});

test.run();
