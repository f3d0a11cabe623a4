import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { newColumn, newProject, projectWorld, type ProjectWorld } from '../../helpers/projects.js';

let app: TestApp;
let w: ProjectWorld;

const list = (id: number, query: Record<string, number>, authorization?: string, org = w.org.name) =>
  app.client(authorization).GET('/orgs/{org}/projects/{id}/columns', { params: { path: { org, id }, query } });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
});
test.after(async () => {
  await app.close();
});

test('200: the columns in board order (sorting, then id); pages; anonymous on a public organization', async () => {
  const p = await newProject(app, w, { template_type: 'basic_kanban' });
  const extra = await newColumn(app, w, p.id, 'Extra');
  const moved = await app.client(w.owner.auth).PATCH('/orgs/{org}/projects/{id}/columns/{column_id}', {
    params: { path: { org: w.org.name, id: p.id, column_id: extra.id } }, body: { sorting: 1 },
  });
  assert.is(moved.response.status, 200);
  const r = await list(p.id, {});
  assert.is(r.response.status, 200);
  assertSpec('orgListProjectColumns', r);
  assert.equal(r.data!.map((c) => c.title), ['Backlog', 'To Do', 'Extra', 'In Progress', 'Done']);
  assert.is(r.response.headers.get('x-total-count'), '5');
  const p2 = await list(p.id, { limit: 2, page: 3 }, w.viewer.auth);
  assert.equal(p2.data!.map((c) => c.title), ['Done']);
});

test('404: a private organization for outsiders; an unknown project; 403: a token without read:issue', async () => {
  const secret = await projectWorld(app, 'private');
  const p = await newProject(app, secret);
  assertEmpty404(await list(p.id, {}, secret.outsider.auth, secret.org.name), 'outsider');
  const anon = await list(p.id, {}, undefined, secret.org.name);
  assertEmpty404(anon, 'anonymous');
  assertSpec('orgListProjectColumns', anon);
  assert.is((await list(p.id, {}, secret.viewer.auth, secret.org.name)).response.status, 200);
  assertEmpty404(await list(987654, {}, w.owner.auth), 'unknown');
  const r = await list(p.id, {}, await app.token(secret.owner, ['read:organization']), secret.org.name);
  assert.is(r.response.status, 403);
  assertSpec('orgListProjectColumns', r);
});

test.run();
