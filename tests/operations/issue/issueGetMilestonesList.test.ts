import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, editRepo, newIssue, newMilestone, people, sharedRepo, type Milestone, type People, type Repo } from '../../helpers/issues.js';
import { linksOf } from '../../helpers/orgs.js';
import { raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
/** none (no due date), late, early, closed, in creation order. */
let m: Record<'none' | 'late' | 'early' | 'closed', Milestone>;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  m = {
    none: await newMilestone(app, pub, p.writer, { title: 'No Date' }),
    late: await newMilestone(app, pub, p.writer, { title: 'Late release', due_on: '2031-01-01T00:00:00Z' }),
    early: await newMilestone(app, pub, p.writer, { title: 'early', due_on: '2030-01-01T00:00:00Z' }),
    closed: await newMilestone(app, pub, p.writer, { title: 'closed one', state: 'closed' }),
  };
  const [a, b] = [await newIssue(app, pub, p.writer, { milestone: m.early.id }), await newIssue(app, pub, p.writer, { milestone: m.early.id })];
  await editIssue(app, pub, b.number, p.writer, { state: 'closed' });
  void a;
  await newMilestone(app, priv, p.owner, { title: 'secret' });
});
test.after(async () => {
  await app.close();
});

type Query = { state?: 'open' | 'closed' | 'all'; name?: string; page?: number; limit?: number };
const list = (repo: Repo, query: Query = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/milestones', { params: { path: repo.path, query } });

async function titles(query: Query, repo = pub, authorization?: string) {
  const r = await list(repo, query, authorization);
  assert.is(r.response.status, 200, JSON.stringify(query));
  assertSpec('issueGetMilestonesList', r);
  return r.data!.map((x) => x.title);
}

test('200: open milestones by default, by due date with those without one last; exact counts', async () => {
  const r = await list(pub, {}, p.reader.auth);
  assert.is(r.response.status, 200);
  assertSpec('issueGetMilestonesList', r);
  assert.equal(r.data!.map((x) => x.title), ['early', 'Late release', 'No Date']);
  const early = r.data![0]!;
  assert.is(early.open_issues, 1);
  assert.is(early.closed_issues, 1);
  assert.is(early.due_on, '2030-01-01T00:00:00Z');
  assert.is(r.response.headers.get('X-Total-Count'), '3');
});

test('200: state and name filters', async () => {
  assert.equal(await titles({ state: 'closed' }), ['closed one']);
  assert.equal(await titles({ state: 'all' }), ['early', 'Late release', 'No Date', 'closed one']);
  assert.equal(await titles({ state: 'all', name: 'LATE' }), ['Late release'], 'contains, case-insensitive');
  assert.equal(await titles({ state: 'all', name: 'e' }), ['early', 'Late release', 'No Date', 'closed one']);
  assert.equal(await titles({ state: 'all', name: '%' }), [], 'wildcards are literal');
});

test('200: paginated with X-Total-Count and Link', async () => {
  const r = await list(pub, { state: 'all', limit: 3, page: 1 });
  assertSpec('issueGetMilestonesList', r);
  assert.is(r.data!.length, 3);
  assert.is(r.response.headers.get('X-Total-Count'), '4');
  assert.equal(linksOf(r.response.headers.get('Link')), { next: { page: 2, limit: 3 }, last: { page: 2, limit: 3 } });
});

test('200: every role that can read; 404 on a private repository for anonymous and outsider, and without issues and pull requests', async () => {
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['writer', p.writer.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    assert.is((await titles({}, pub, auth)).length, 3, label);
  }
  for (const [label, auth] of [['reader', p.reader.auth], ['site admin', p.admin.auth]] as const) assert.equal(await titles({}, priv, auth), ['secret'], label);
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth]] as const) {
    const r = await list(priv, {}, auth);
    assertEmpty404(r, label);
    assertSpec('issueGetMilestonesList', r);
  }
  const repo = await sharedRepo(app, p);
  await newMilestone(app, repo, p.owner);
  await editRepo(app, repo, { has_issues: false, has_pull_requests: false });
  assertEmpty404(await list(repo, {}, p.owner.auth), 'neither unit');
});

test('403: a token without an issue scope; 422: an unknown state', async () => {
  const r = await list(pub, {}, await app.token(p.reader, ['read:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueGetMilestonesList', r);
  assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
  const bad = await raw(app, 'GET', `/repos/${pub.full_name}/milestones?state=finished`);
  assert.is(bad.response.status, 422);
});

test.run();
