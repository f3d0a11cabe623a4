import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { closeProject, columnsOf, counts, getProject, newColumn, newProject, projectWorld, putIssue, type ProjectWorld } from '../../helpers/projects.js';

let app: TestApp;
let w: ProjectWorld;

const del = (id: number, columnId: number, authorization?: string) =>
  app.client(authorization).DELETE('/orgs/{org}/projects/{id}/columns/{column_id}', { params: { path: { org: w.org.name, id, column_id: columnId } } });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
});
test.after(async () => {
  await app.close();
});

test('204: the column goes and its issues move to the default column; the default cannot be deleted (422)', async () => {
  const p = await newProject(app, w, { template_type: 'basic_kanban' });
  const [backlog, todo] = await columnsOf(app, w, p.id);
  await putIssue(app, w, p.id, todo!.id, w.issues.pub1.id);
  const r = await del(p.id, todo!.id, w.planner.auth);
  assert.is(r.response.status, 204);
  assertSpec('orgDeleteProjectColumn', r);
  assert.equal((await columnsOf(app, w, p.id)).map((c) => c.title), ['Backlog', 'In Progress', 'Done']);
  assert.equal(counts(await getProject(app, w, p.id, w.owner)), [1, 1, 0], 'the issue is still on the board');
  const again = await putIssue(app, w, p.id, backlog!.id, w.issues.pub1.id);
  assert.is(again.response.status, 200, 'and can be moved from the default column');
  const refused = await del(p.id, backlog!.id, w.owner.auth);
  assert.is(refused.response.status, 422);
  assertSpec('orgDeleteProjectColumn', refused);
  assert.is(messageOf(refused.error), 'the default column cannot be deleted');
});

test('a board without a default column gets one (Uncategorized) when a column with issues goes', async () => {
  const p = await newProject(app, w);
  const a = await newColumn(app, w, p.id, 'A');
  const b = await newColumn(app, w, p.id, 'B');
  assert.is((await del(p.id, b.id, w.owner.auth)).response.status, 204, 'an empty column just goes');
  assert.equal((await columnsOf(app, w, p.id)).map((c) => c.title), ['A']);
  await putIssue(app, w, p.id, a.id, w.issues.pub2.id);
  assert.is((await del(p.id, a.id, w.owner.auth)).response.status, 204);
  const cols = await columnsOf(app, w, p.id);
  assert.equal(cols.map((c) => [c.title, c.default]), [['Uncategorized', true]]);
  assert.equal(counts(await getProject(app, w, p.id, w.owner)), [1, 1, 0]);
});

test('403: closed project; 404: reader, outsider, unknown column; 401', async () => {
  const p = await newProject(app, w);
  const c = await newColumn(app, w, p.id);
  for (const as of [w.viewer, w.outsider]) assertEmpty404(await del(p.id, c.id, as.auth), as.username);
  assertEmpty404(await del(p.id, 987654, w.owner.auth), 'unknown column');
  const anon = await del(p.id, c.id);
  assert.is(anon.response.status, 401);
  assertSpec('orgDeleteProjectColumn', anon);
  await closeProject(app, w, p.id);
  const closed = await del(p.id, c.id, w.owner.auth);
  assert.is(closed.response.status, 403);
  assertSpec('orgDeleteProjectColumn', closed);
});

test.run();
