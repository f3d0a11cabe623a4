// Counters under concurrent writers: every counter equals a recount of what it counts, however many
// requests raced (on PostgreSQL they run in parallel transactions; PGlite has one connection). Random
// mixes of creates, closes, reopens and comments, repeated, with the counters checked after each round.
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { labels } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import {
  editIssue, getIssue, getMilestone, newIssue, newLabel, newMilestone, people, sharedRepo, type People, type Repo,
} from '../helpers/issues.js';

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

async function allIssues(repo: Repo) {
  const r = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues', {
    params: { path: repo.path, query: { state: 'all', type: 'issues', limit: 50 } },
  });
  assert.is(r.response.status, 200);
  return r.data!;
}

test('40 comments posted at once on one issue: its comments count is 40', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.owner);
  const posted = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    app.client([p.owner, p.writer, p.reader][i % 3]!.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', {
      params: { path: { ...repo.path, index: issue.number } }, body: { body: `comment ${i}` },
    })));
  assert.equal(posted.map((r) => r.response.status), Array(40).fill(201));
  assert.is((await getIssue(app, repo, issue.number)).comments, 40);
});

test('racing creates, closes and reopens: the repository, milestone and label counts equal a recount', async () => {
  const repo = await sharedRepo(app, p);
  const milestone = await newMilestone(app, repo, p.owner, { title: 'm' });
  const label = await newLabel(app, repo, p.owner, { name: 'l', color: '#00aabb' });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('create' as const), closed: fc.boolean(), tagged: fc.boolean() }),
    fc.record({ kind: fc.constant('toggle' as const), pick: fc.nat() }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 6, maxLength: 10 }), async (ops) => {
      const existing = await allIssues(repo);
      await Promise.all(ops.map(async (o) => {
        if (o.kind === 'create') {
          await newIssue(app, repo, p.writer, { closed: o.closed, milestone: milestone.id, labels: o.tagged ? [label.id] : [] });
        } else if (existing.length) {
          const target = existing[o.pick % existing.length]!;
          // Two toggles of one issue in a round may both see it open: either order is a valid outcome.
          await editIssue(app, repo, target.number, p.writer, { state: o.pick % 2 ? 'closed' : 'open' });
        }
      }));
      const issues = await allIssues(repo);
      const open = issues.filter((i) => i.state === 'open');
      const r = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: repo.path } });
      assert.is(r.data!.open_issues_count, open.length, 'open_issues_count');
      const m = await getMilestone(app, repo, milestone.id);
      assert.equal([m.open_issues, m.closed_issues], [open.length, issues.length - open.length], 'milestone counts');
      const tagged = issues.filter((i) => i.labels.some((l) => l.id === label.id));
      // A label's counts are not in its API answer: read from its row.
      const [row] = await app.services.deps.db.select({ n: labels.numIssues, c: labels.numClosedIssues }).from(labels).where(eq(labels.id, label.id));
      assert.equal([row!.n, row!.c], [tagged.length, tagged.filter((i) => i.state === 'closed').length], 'label counts');
    }),
    { numRuns: 4 },
  );
});

test.run();
