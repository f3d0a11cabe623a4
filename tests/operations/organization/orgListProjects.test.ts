import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { closeProject, counts, newColumn, newProject, projectWorld, putIssue, type Project, type ProjectWorld } from '../../helpers/projects.js';

let app: TestApp;
let w: ProjectWorld;
let made: Project[];

const list = (query: Record<string, string | number>, authorization?: string, org = w.org.name) =>
  app.client(authorization).GET('/orgs/{org}/projects', { params: { path: { org }, query } });
const ids = (ps: Project[] | undefined) => (ps ?? []).map((p) => p.id);

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
  made = [];
  for (const title of ['one', 'two', 'three', 'four']) made.push(await newProject(app, w, { title }));
  await closeProject(app, w, made[1]!.id);
  const col = await newColumn(app, w, made[3]!.id);
  await putIssue(app, w, made[3]!.id, col.id, w.issues.pub1.id);
  await putIssue(app, w, made[3]!.id, col.id, w.issues.priv1.id);
});
test.after(async () => {
  await app.close();
});

test('200: open projects, newest first, by default; state closed and all; anonymous on a public organization', async () => {
  const r = await list({}, w.owner.auth);
  assert.is(r.response.status, 200);
  assertSpec('orgListProjects', r);
  assert.equal(ids(r.data), [made[3]!.id, made[2]!.id, made[0]!.id]);
  assert.is(r.response.headers.get('x-total-count'), '3');
  assert.equal(ids((await list({ state: 'closed' }, w.owner.auth)).data), [made[1]!.id]);
  assert.equal(ids((await list({ state: 'all' }, w.viewer.auth)).data), [...made].reverse().map((p) => p.id));
  const anon = await list({});
  assert.is(anon.response.status, 200);
  assertSpec('orgListProjects', anon);
});

test('pages; each project’s counts are what the caller can see', async () => {
  const p2 = await list({ state: 'all', limit: 3, page: 2 }, w.owner.auth);
  assert.equal(ids(p2.data), [made[0]!.id]);
  assert.match(p2.response.headers.get('link') ?? '', 'rel="prev"');
  assert.equal(counts((await list({}, w.planner.auth)).data![0]!), [2, 2, 0]);
  assert.equal(counts((await list({}, w.viewer.auth)).data![0]!), [1, 1, 0]);
});

test('404: a private organization for an outsider or anonymous; 422: an unknown state', async () => {
  const secret = await projectWorld(app, 'private');
  await newProject(app, secret);
  assertEmpty404(await list({}, secret.outsider.auth, secret.org.name), 'outsider');
  const anon = await list({}, undefined, secret.org.name);
  assertEmpty404(anon, 'anonymous');
  assertSpec('orgListProjects', anon);
  assert.is(ids((await list({}, secret.viewer.auth, secret.org.name)).data).length, 1);
  const bad = await list({ state: 'done' }, w.owner.auth);
  assert.is(bad.response.status, 422);
  assertSpec('orgListProjects', bad);
});

test.run();
