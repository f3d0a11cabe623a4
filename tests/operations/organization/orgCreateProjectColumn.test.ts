import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { messageOf, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { closeProject, columnsOf, newProject, projectWorld, type Project, type ProjectWorld } from '../../helpers/projects.js';

let app: TestApp;
let w: ProjectWorld;
let board: Project;

const create = (id: number, body: { title: string; color?: string }, authorization?: string, org = w.org.name) =>
  app.client(authorization).POST('/orgs/{org}/projects/{id}/columns', { params: { path: { org, id } }, body });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
  board = await newProject(app, w);
});
test.after(async () => {
  await app.close();
});

test('201: appended after the others, not the default, the caller its creator; the colour kept', async () => {
  const first = await create(board.id, { title: 'To do', color: '#00aaFF' }, w.planner.auth);
  assert.is(first.response.status, 201, JSON.stringify(first.error));
  assertSpec('orgCreateProjectColumn', first);
  const c = first.data!;
  assert.equal({ ...c, creator: c.creator.login }, {
    id: c.id, project_id: board.id, title: 'To do', color: '#00aaFF', default: false, sorting: 0, creator: w.planner.username,
    created_at: c.created_at, updated_at: c.updated_at,
  });
  const second = (await create(board.id, { title: 'Done' }, w.admin.auth)).data!;
  assert.equal([second.sorting, second.color, second.creator.login], [1, '', w.admin.username]);
  assert.equal((await columnsOf(app, w, board.id)).map((x) => x.id), [c.id, second.id]);
});

test('422: an empty title, a colour not # and six hex digits', async () => {
  for (const body of [{ title: '' }, { title: '  ' }, { title: 'x', color: 'red' }, { title: 'x', color: '#12345' }, { title: 'x', color: '#1234567' }, { title: 'x', color: '123456' }]) {
    const r = await create(board.id, body, w.owner.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('orgCreateProjectColumn', r);
    assert.equal(Object.keys(r.error as object).sort(), ['message', 'url']);
  }
});

test('422 (never 500) past 20 columns, however many ask at once', async () => {
  const p = await newProject(app, w, { template_type: 'basic_kanban' }); // 4 columns
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(p.id, { title: `c${i}` }, w.owner.auth)));
  const statuses = answers.map((a) => a.response.status);
  assert.is(statuses.filter((s) => s === 201).length, 16, JSON.stringify(statuses));
  assert.is(statuses.filter((s) => s === 422).length, 4, JSON.stringify(statuses));
  const refused = answers.find((a) => a.response.status === 422)!;
  assertSpec('orgCreateProjectColumn', refused);
  assert.equal(refused.error, { message: 'a project has at most 20 columns', url: swaggerOf(app) });
  const cols = await columnsOf(app, w, p.id);
  assert.is(cols.length, 20);
  assert.equal(cols.map((c) => c.sorting), Array.from({ length: 20 }, (_, i) => i), 'positions 0..19, no duplicates');
});

test('403: the project is closed', async () => {
  const p = await newProject(app, w);
  await closeProject(app, w, p.id);
  const r = await create(p.id, { title: 'x' }, w.owner.auth);
  assert.is(r.response.status, 403);
  assertSpec('orgCreateProjectColumn', r);
  assert.is(messageOf(r.error), 'project is closed');
});

test('404: a reader of projects, an outsider, an unknown or foreign project; 401; 403 for a token without write scopes', async () => {
  for (const as of [w.viewer, w.outsider]) {
    const r = await create(board.id, { title: 'x' }, as.auth);
    assertEmpty404(r, as.username);
    assertSpec('orgCreateProjectColumn', r);
  }
  assertEmpty404(await create(987654, { title: 'x' }, w.owner.auth), 'unknown');
  const other = await projectWorld(app);
  const theirs = await newProject(app, other);
  assertEmpty404(await create(theirs.id, { title: 'x' }, w.owner.auth), 'another org’s project through mine');
  const anon = await create(board.id, { title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('orgCreateProjectColumn', anon);
  const r = await create(board.id, { title: 'x' }, await app.token(w.owner, ['write:organization', 'read:issue']));
  assert.is(r.response.status, 403);
  assert.match(messageOf(r.error), 'write:issue');
});

test.run();
