// Every counter equals a recount, whatever happened before (issue 5): random sequences of issue
// creation, closing, reopening, comments and milestone changes against the real app, then each stored
// count is compared with what the lists (or, for labels, the issue_labels rows) say.
import { and, count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueLabels, issues, labels } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { newLabel, newMilestone, people, sharedRepo, type Label, type Milestone, type People, type Repo } from '../helpers/issues.js';
import { getRepo } from '../helpers/repos.js';

type Step =
  | { kind: 'create'; labels: boolean[]; milestone: number; closed: boolean; byReader: boolean }
  | { kind: 'close' | 'reopen' | 'comment' | 'deleteComment' | 'clearMilestone'; pick: number }
  | { kind: 'setMilestone'; pick: number; milestone: number };

const pick = fc.nat({ max: 1000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), labels: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }), milestone: fc.nat({ max: 2 }), closed: fc.boolean(), byReader: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reopen' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('comment' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteComment' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('setMilestone' as const), pick, milestone: fc.nat({ max: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clearMilestone' as const), pick }) },
);

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

interface World {
  repo: Repo;
  labels: Label[];
  milestones: Milestone[];
  issues: number[];
  comments: number[];
}

async function world(): Promise<World> {
  const repo = await sharedRepo(app, p);
  const [l1, l2, m1, m2] = await Promise.all([
    newLabel(app, repo, p.owner, { name: 'one' }), newLabel(app, repo, p.owner, { name: 'two' }),
    newMilestone(app, repo, p.owner, { title: 'm-one' }), newMilestone(app, repo, p.owner, { title: 'm-two' }),
  ]);
  return { repo, labels: [l1, l2], milestones: [m1, m2], issues: [], comments: [] };
}

async function apply(w: World, s: Step): Promise<void> {
  const c = app.client(p.owner.auth);
  const path = w.repo.path;
  const ok = (r: { response: Response; error?: unknown }, want: number) => assert.is(r.response.status, want, `${JSON.stringify(s)}: ${JSON.stringify(r.error)}`);
  if (s.kind === 'create') {
    const body = {
      title: 'generated',
      labels: w.labels.filter((_, k) => s.labels[k]).map((l) => l.id),
      milestone: s.milestone ? w.milestones[s.milestone - 1]!.id : undefined,
      closed: s.closed,
    };
    const r = await app.client((s.byReader ? p.reader : p.owner).auth).POST('/repos/{owner}/{repo}/issues', { params: { path }, body });
    ok(r, 201);
    w.issues.push(r.data!.number);
    return;
  }
  if (s.kind === 'deleteComment') {
    if (w.comments.length === 0) return;
    const [id] = w.comments.splice(s.pick % w.comments.length, 1);
    ok(await c.DELETE('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...path, id: id! } } }), 204);
    return;
  }
  if (w.issues.length === 0) return;
  const index = w.issues[s.pick % w.issues.length]!;
  const edit = (body: { state?: string; milestone?: number }) => c.PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...path, index } }, body });
  switch (s.kind) {
    case 'close':
      return ok(await edit({ state: 'closed' }), 201);
    case 'reopen':
      return ok(await edit({ state: 'open' }), 201);
    case 'setMilestone':
      return ok(await edit({ milestone: w.milestones[s.milestone]!.id }), 201);
    case 'clearMilestone':
      return ok(await edit({ milestone: 0 }), 201);
    case 'comment': {
      const r = await app.client(p.reader.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...path, index } }, body: { body: 'generated' } });
      ok(r, 201);
      w.comments.push(r.data!.id);
    }
  }
}

/** Total items of a list (X-Total-Count), checked against the page when it holds them all. */
function totalOf(r: { response: Response; data?: unknown[] }): number {
  assert.is(r.response.status, 200);
  const total = Number(r.response.headers.get('X-Total-Count'));
  if (total <= 50) assert.is(r.data!.length, total);
  return total;
}

async function recount(w: World): Promise<void> {
  const c = app.client(p.owner.auth);
  const path = w.repo.path;
  const listed = (query: { state: 'open' | 'closed' | 'all'; milestones?: string }) =>
    c.GET('/repos/{owner}/{repo}/issues', { params: { path, query: { ...query, type: 'issues', limit: 50 } } });

  const repo = (await getRepo(app, path.owner, path.repo, p.owner.auth)).data!;
  assert.is(repo.open_issues_count, totalOf(await listed({ state: 'open' })), 'repository open_issues_count');

  for (const m of w.milestones) {
    const got = (await c.GET('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...path, id: String(m.id) } } })).data!;
    assert.is(got.open_issues, totalOf(await listed({ state: 'open', milestones: m.title })), `${m.title} open_issues`);
    assert.is(got.closed_issues, totalOf(await listed({ state: 'closed', milestones: m.title })), `${m.title} closed_issues`);
  }

  const all = await listed({ state: 'all' });
  assert.is(totalOf(all), w.issues.length);
  for (const issue of all.data!) {
    const comments = await c.GET('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...path, index: issue.number }, query: { limit: 50 } } });
    assert.is(issue.comments, totalOf(comments), `issue ${issue.number} comments`);
  }

  const { db } = app.services.deps;
  for (const l of w.labels) {
    const [row] = await db.select().from(labels).where(eq(labels.id, l.id));
    const [tagged] = await db.select({ n: count() }).from(issueLabels).where(eq(issueLabels.labelId, l.id));
    const [closed] = await db.select({ n: count() }).from(issueLabels).innerJoin(issues, eq(issues.id, issueLabels.issueId))
      .where(and(eq(issueLabels.labelId, l.id), eq(issues.isClosed, true)));
    assert.is(row!.numIssues, tagged!.n, `label ${l.name} num_issues`);
    assert.is(row!.numClosedIssues, closed!.n, `label ${l.name} num_closed_issues`);
  }
}

test('every counter equals a recount after random sequences of issue, comment and milestone changes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 20 }), async (steps) => {
      const w = await world();
      for (const s of steps) await apply(w, s);
      await recount(w);
    }),
    // Each run talks to the real app: a failure reports its sequence instead of shrinking it at length.
    { numRuns: 15, endOnFailure: true },
  );
});

test.run();
