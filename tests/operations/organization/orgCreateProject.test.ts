import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { columnsOf, getProject, projectWorld, type ProjectWorld } from '../../helpers/projects.js';

type Body = { title: string; description?: string; template_type?: 'none' | 'basic_kanban' | 'bug_triage'; card_type?: 'text_only' | 'images_and_text' };

let app: TestApp;
let w: ProjectWorld;

const create = (body: Body, authorization?: string, org = w.org.name) => app.client(authorization).POST('/orgs/{org}/projects', { params: { path: { org } }, body });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
});
test.after(async () => {
  await app.close();
});

test('201: the owner, a team writing projects and the site admin create projects; open, no columns, no issues', async () => {
  for (const as of [w.owner, w.planner, w.admin]) {
    const r = await create({ title: `by ${as.username}`, description: 'd' }, as.auth);
    assert.is(r.response.status, 201, `${as.username}: ${JSON.stringify(r.error)}`);
    assertSpec('orgCreateProject', r);
    const p = r.data!;
    assert.equal(
      [p.title, p.description, p.state, p.is_closed, p.template_type, p.card_type, p.type, p.owner_id, p.repo_id, p.creator.login, p.num_issues, p.closed_at],
      [`by ${as.username}`, 'd', 'open', false, 'none', 'text_only', 'organization', w.org.id, 0, as.username, 0, null],
    );
    assert.equal(await getProject(app, w, p.id, as), p, 'read-after-write');
    assert.equal(await columnsOf(app, w, p.id), []);
  }
});

test('201: templates make their columns, the first the default one; card_type is kept', async () => {
  const kanban = await create({ title: 'k', template_type: 'basic_kanban', card_type: 'images_and_text' }, w.owner.auth);
  assert.equal([kanban.data!.template_type, kanban.data!.card_type], ['basic_kanban', 'images_and_text']);
  const cols = await columnsOf(app, w, kanban.data!.id);
  assert.equal(cols.map((c) => [c.title, c.default, c.sorting]), [['Backlog', true, 0], ['To Do', false, 1], ['In Progress', false, 2], ['Done', false, 3]]);
  const triage = await create({ title: 't', template_type: 'bug_triage' }, w.owner.auth);
  assert.equal((await columnsOf(app, w, triage.data!.id)).map((c) => c.title), ['Backlog', 'Needs Triage', 'High Priority', 'Low Priority', 'Closed']);
});

test('422: an empty or blank title, an unknown template', async () => {
  for (const body of [{ title: '' }, { title: '   ' }, { description: 'no title' }, { title: 'x', template_type: 'scrum' }]) {
    const r = await create(body as Body, w.owner.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('orgCreateProject', r);
  }
});

test('404: a team reading projects only, an outsider; a private organization; an unknown organization', async () => {
  for (const as of [w.viewer, w.outsider]) {
    const r = await create({ title: 'x' }, as.auth);
    assertEmpty404(r, as.username);
    assertSpec('orgCreateProject', r);
  }
  assertEmpty404(await create({ title: 'x' }, w.owner.auth, 'no-such-org'), 'unknown org');
  const secret = await projectWorld(app, 'private');
  assertEmpty404(await create({ title: 'x' }, secret.outsider.auth, secret.org.name), 'private org outsider');
  assert.is((await create({ title: 'x' }, secret.planner.auth, secret.org.name)).response.status, 201);
});

test('401: anonymous; 403: a token without write:organization and write:issue', async () => {
  const anon = await create({ title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('orgCreateProject', anon);
  const r = await create({ title: 'x' }, await app.token(w.owner, ['write:issue', 'read:organization']));
  assert.is(r.response.status, 403);
  assert.match(messageOf(r.error), 'write:organization');
  assert.is((await create({ title: 'x' }, await app.token(w.owner, ['write:issue', 'write:organization']))).response.status, 201);
});

test.run();
