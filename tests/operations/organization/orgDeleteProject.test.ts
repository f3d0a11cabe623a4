import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, getIssue } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { newColumn, newProject, projectWorld, putIssue, type ProjectWorld } from '../../helpers/projects.js';

let app: TestApp;
let w: ProjectWorld;

const del = (id: number, authorization?: string) => app.client(authorization).DELETE('/orgs/{org}/projects/{id}', { params: { path: { org: w.org.name, id } } });
const get = (id: number) => app.client(w.owner.auth).GET('/orgs/{org}/projects/{id}', { params: { path: { org: w.org.name, id } } });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
});
test.after(async () => {
  await app.close();
});

test('204: the project and its columns go; its issues stay; deleting it again is 404', async () => {
  const p = await newProject(app, w, { template_type: 'basic_kanban' });
  const col = await newColumn(app, w, p.id);
  await putIssue(app, w, p.id, col.id, w.issues.pub1.id);
  const r = await del(p.id, w.planner.auth);
  assert.is(r.response.status, 204);
  assertSpec('orgDeleteProject', r);
  assertEmpty404(await get(p.id), 'gone');
  assert.is((await getIssue(app, w.pub, w.issues.pub1.number)).title, w.issues.pub1.title);
  assertEmpty404(await del(p.id, w.owner.auth), 'again');
  const other = await newProject(app, w);
  assert.is((await putIssue(app, w, other.id, (await newColumn(app, w, other.id)).id, w.issues.pub1.id)).response.status, 200, 'the issue can join another board');
});

test('404: a reader, an outsider; 401: anonymous; the site admin may', async () => {
  const p = await newProject(app, w);
  for (const as of [w.viewer, w.outsider]) assertEmpty404(await del(p.id, as.auth), as.username);
  const anon = await del(p.id);
  assert.is(anon.response.status, 401);
  assertSpec('orgDeleteProject', anon);
  assert.is((await get(p.id)).response.status, 200, 'still there');
  assert.is((await del(p.id, w.admin.auth)).response.status, 204);
});

test.run();
