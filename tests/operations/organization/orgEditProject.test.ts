import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { getProject, newProject, projectWorld, type ProjectWorld } from '../../helpers/projects.js';

type Body = { title?: string; description?: string; card_type?: 'text_only' | 'images_and_text'; state?: 'open' | 'closed' };

let app: TestApp;
let w: ProjectWorld;

const edit = (id: number, body: Body, authorization?: string) => app.client(authorization).PATCH('/orgs/{org}/projects/{id}', { params: { path: { org: w.org.name, id } }, body });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
});
test.after(async () => {
  await app.close();
});

test('200: the given fields change, the others stay', async () => {
  const p = await newProject(app, w, { title: 'before', description: 'keep me' });
  const r = await edit(p.id, { title: 'after', card_type: 'images_and_text' }, w.planner.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('orgEditProject', r);
  assert.equal([r.data!.title, r.data!.description, r.data!.card_type, r.data!.state], ['after', 'keep me', 'images_and_text', 'open']);
  assert.ok(Date.parse(r.data!.updated_at!) >= Date.parse(p.updated_at!));
  assert.equal(await getProject(app, w, p.id, w.planner), r.data);
});

test('closing sets state, is_closed and closed_at; reopening clears closed_at', async () => {
  const p = await newProject(app, w);
  const closed = (await edit(p.id, { state: 'closed' }, w.owner.auth)).data!;
  assert.equal([closed.state, closed.is_closed], ['closed', true]);
  assert.ok(closed.closed_at && Date.parse(closed.closed_at) <= Date.now());
  const again = (await edit(p.id, { state: 'closed', description: 'x' }, w.owner.auth)).data!;
  assert.is(again.closed_at, closed.closed_at, 'closing a closed project keeps its closed_at');
  const open = (await edit(p.id, { state: 'open' }, w.admin.auth)).data!;
  assert.equal([open.state, open.is_closed, open.closed_at], ['open', false, null]);
});

test('422: an empty title or an unknown state; 404: a reader, an outsider, an unknown project; 401', async () => {
  const p = await newProject(app, w);
  for (const body of [{ title: '' }, { title: ' ' }, { state: 'archived' }]) {
    const r = await edit(p.id, body as Body, w.owner.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('orgEditProject', r);
  }
  for (const as of [w.viewer, w.outsider]) assertEmpty404(await edit(p.id, { title: 'x' }, as.auth), as.username);
  assertEmpty404(await edit(987654, { title: 'x' }, w.owner.auth), 'unknown');
  const anon = await edit(p.id, { title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('orgEditProject', anon);
  assert.is((await getProject(app, w, p.id)).title, 'a board', 'nothing changed');
});

test.run();
