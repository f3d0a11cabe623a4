import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, getIssue, newIssue, type Issue } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { closeProject, counts, getProject, newColumn, newProject, projectWorld, putIssue, type ProjectColumn, type ProjectWorld } from '../../helpers/projects.js';

let app: TestApp;
let w: ProjectWorld;

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
});
test.after(async () => {
  await app.close();
});

test('200: the issue joins the column (the column is answered); putting it in another column moves it', async () => {
  const p = await newProject(app, w);
  const a = await newColumn(app, w, p.id, 'A');
  const b = await newColumn(app, w, p.id, 'B');
  const r = await putIssue(app, w, p.id, a.id, w.issues.pub1.id, w.planner);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('orgAddProjectColumnIssue', r);
  assert.equal({ ...r.data!, creator: r.data!.creator.login }, { ...a, creator: a.creator.login });
  assert.equal(counts(await getProject(app, w, p.id, w.owner)), [1, 1, 0]);
  assert.is((await putIssue(app, w, p.id, b.id, w.issues.pub1.id)).response.status, 200);
  assert.is((await putIssue(app, w, p.id, b.id, w.issues.pub1.id)).response.status, 200, 'again: no change');
  assert.equal(counts(await getProject(app, w, p.id, w.owner)), [1, 1, 0], 'moved, not copied');
});

test('the issue’s `projects` shows the boards holding it, in GET and lists of issues', async () => {
  const p = await newProject(app, w, { title: 'Shown' });
  const c = await newColumn(app, w, p.id);
  const issue = await newIssue(app, w.pub, w.owner, { title: 'on a board' });
  assert.equal((await getIssue(app, w.pub, issue.number)).projects, []);
  await putIssue(app, w, p.id, c.id, issue.id);
  const got = await getIssue(app, w.pub, issue.number, w.planner);
  assert.equal(got.projects.map((x) => [x.id, x.title, x.num_issues]), [[p.id, 'Shown', 1]]);
  assert.equal(got.projects[0], await getProject(app, w, p.id, w.planner), 'the same Project as GET /orgs/{org}/projects/{id}');
  const listed = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues', { params: { path: w.pub.path, query: { q: 'on a board' } } });
  assert.equal(listed.data!.map((i) => i.projects.map((x) => x.id)), [[p.id]]);
});

test('422: an issue of another organization, an unknown id, one the caller cannot read', async () => {
  const p = await newProject(app, w);
  const c = await newColumn(app, w, p.id);
  const other = await projectWorld(app);
  for (const [label, id] of [['other org', other.issues.pub1.id], ['unknown', 987654]] as const) {
    const r = await putIssue(app, w, p.id, c.id, id);
    assert.is(r.response.status, 422, label);
    assertSpec('orgAddProjectColumnIssue', r);
    assert.match(messageOf(r.error), `issue ${id} does not exist`);
  }
  // An owner-only team member could write projects without reading the private repository: a fresh team.
  const res = await app.client(w.owner.auth).POST('/orgs/{org}/teams', {
    params: { path: { org: w.org.name } }, body: { name: 'boards-only', units_map: { 'repo.projects': 'write' } },
  });
  await app.client(w.owner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: res.data!.id, username: w.viewer.username } } });
  assert.is((await putIssue(app, w, p.id, c.id, w.issues.pub1.id, w.viewer)).response.status, 200, 'public repository');
  assert.is((await putIssue(app, w, p.id, c.id, w.issues.priv1.id, w.viewer)).response.status, 422, 'private repository it cannot read');
});

test('403: closed project; 404: reader, outsider, a column of another project; 401', async () => {
  const p = await newProject(app, w);
  const c = await newColumn(app, w, p.id);
  const q = await newProject(app, w);
  assertEmpty404(await putIssue(app, w, q.id, c.id, w.issues.pub1.id), 'column of another project');
  assertEmpty404(await putIssue(app, w, p.id, c.id, w.issues.pub1.id, w.outsider), 'outsider');
  const anon = await app.client().POST('/orgs/{org}/projects/{id}/columns/{column_id}/issues', {
    params: { path: { org: w.org.name, id: p.id, column_id: c.id } }, body: { issue_id: w.issues.pub1.id },
  });
  assert.is(anon.response.status, 401);
  assertSpec('orgAddProjectColumnIssue', anon);
  await closeProject(app, w, p.id);
  const closed = await putIssue(app, w, p.id, c.id, w.issues.pub1.id);
  assert.is(closed.response.status, 403);
  assert.is(messageOf(closed.error), 'project is closed');
});

test('property: under random moves between columns and random closes and reopens, the counts match a model for each caller', async () => {
  const p = await newProject(app, w, { template_type: 'basic_kanban' });
  const cols: ProjectColumn[] = (await app.client(w.owner.auth).GET('/orgs/{org}/projects/{id}/columns', { params: { path: { org: w.org.name, id: p.id } } })).data!;
  const pool: Array<{ issue: Issue; repo: typeof w.pub; secret: boolean }> = [];
  for (let i = 0; i < 3; i++) pool.push({ issue: await newIssue(app, w.pub, w.owner, { title: `p${i}` }), repo: w.pub, secret: false });
  for (let i = 0; i < 2; i++) pool.push({ issue: await newIssue(app, w.priv, w.owner, { title: `s${i}` }), repo: w.priv, secret: true });
  const onBoard = new Map<number, number>(); // issue index in pool → column id
  const closed = new Set<number>();
  const step = fc.oneof(
    fc.record({ kind: fc.constant('move' as const), i: fc.nat(pool.length - 1), c: fc.nat(cols.length - 1) }),
    fc.record({ kind: fc.constant('state' as const), i: fc.nat(pool.length - 1) }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
      for (const s of steps) {
        const item = pool[s.i]!;
        if (s.kind === 'move') {
          assert.is((await putIssue(app, w, p.id, cols[s.c]!.id, item.issue.id)).response.status, 200);
          onBoard.set(s.i, cols[s.c]!.id);
        } else {
          const close = !closed.has(s.i);
          await editIssue(app, item.repo, item.issue.number, w.owner, { state: close ? 'closed' : 'open' });
          if (close) closed.add(s.i);
          else closed.delete(s.i);
        }
      }
      const model = (withSecret: boolean) => {
        const seen = [...onBoard.keys()].filter((i) => withSecret || !pool[i]!.secret);
        const shut = seen.filter((i) => closed.has(i)).length;
        return [seen.length, seen.length - shut, shut];
      };
      assert.equal(counts(await getProject(app, w, p.id, w.planner)), model(true), 'planner');
      assert.equal(counts(await getProject(app, w, p.id)), model(false), 'anonymous');
    }),
    { numRuns: 8 },
  );
});

test.run();
