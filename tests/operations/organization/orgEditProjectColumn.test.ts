import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { closeProject, columnsOf, newColumn, newProject, projectWorld, type ProjectWorld } from '../../helpers/projects.js';

type Body = { title?: string; color?: string; sorting?: number; default?: boolean };

let app: TestApp;
let w: ProjectWorld;

const edit = (id: number, columnId: number, body: Body, authorization?: string) =>
  app.client(authorization).PATCH('/orgs/{org}/projects/{id}/columns/{column_id}', { params: { path: { org: w.org.name, id, column_id: columnId } }, body });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
});
test.after(async () => {
  await app.close();
});

test('200: title, colour and position change; the others stay', async () => {
  const p = await newProject(app, w);
  const c = await newColumn(app, w, p.id, 'before');
  const r = await edit(p.id, c.id, { title: 'after', color: '#abcdef', sorting: 7 }, w.planner.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('orgEditProjectColumn', r);
  assert.equal([r.data!.title, r.data!.color, r.data!.sorting, r.data!.default], ['after', '#abcdef', 7, false]);
  assert.is((await edit(p.id, c.id, { color: '' }, w.owner.auth)).data!.color, '', 'an empty colour clears it');
});

test('default: one column at a time; the default cannot be unset (422)', async () => {
  const p = await newProject(app, w, { template_type: 'basic_kanban' });
  const [backlog, todo] = await columnsOf(app, w, p.id);
  const r = await edit(p.id, todo!.id, { default: true }, w.owner.auth);
  assert.is(r.data!.default, true);
  assert.equal((await columnsOf(app, w, p.id)).filter((c) => c.default).map((c) => c.id), [todo!.id]);
  assert.is((await edit(p.id, backlog!.id, { default: false }, w.owner.auth)).response.status, 200, 'not the default: nothing to unset');
  const refused = await edit(p.id, todo!.id, { default: false }, w.owner.auth);
  assert.is(refused.response.status, 422);
  assertSpec('orgEditProjectColumn', refused);
  assert.match(messageOf(refused.error), 'default column');
});

test('422: empty title, bad colour, negative position; 403: closed project; 404: reader, outsider, another project’s column', async () => {
  const p = await newProject(app, w);
  const c = await newColumn(app, w, p.id);
  for (const body of [{ title: '' }, { color: 'blue' }, { sorting: -1 }]) {
    const r = await edit(p.id, c.id, body, w.owner.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('orgEditProjectColumn', r);
  }
  for (const as of [w.viewer, w.outsider]) assertEmpty404(await edit(p.id, c.id, { title: 'x' }, as.auth), as.username);
  const q = await newProject(app, w);
  assertEmpty404(await edit(q.id, c.id, { title: 'x' }, w.owner.auth), 'column of another project');
  await closeProject(app, w, p.id);
  const closed = await edit(p.id, c.id, { title: 'x' }, w.owner.auth);
  assert.is(closed.response.status, 403);
  assert.is(messageOf(closed.error), 'project is closed');
  const anon = await edit(p.id, c.id, { title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('orgEditProjectColumn', anon);
});

test.run();
