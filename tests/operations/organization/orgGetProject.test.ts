import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { counts, newColumn, newProject, projectWorld, putIssue, type Project, type ProjectWorld } from '../../helpers/projects.js';

let app: TestApp;
let w: ProjectWorld;
let board: Project;

const get = (id: number, authorization?: string, org = w.org.name) => app.client(authorization).GET('/orgs/{org}/projects/{id}', { params: { path: { org, id } } });

test.before(async () => {
  app = await startApp();
  w = await projectWorld(app);
  board = await newProject(app, w, { title: 'Roadmap', description: 'what comes next' });
  const col = await newColumn(app, w, board.id);
  for (const i of [w.issues.pub1, w.issues.pub2, w.issues.priv1]) assert.is((await putIssue(app, w, board.id, col.id, i.id)).response.status, 200);
  await editIssue(app, w.pub, w.issues.pub2.number, w.owner, { state: 'closed' });
});
test.after(async () => {
  await app.close();
});

test('200: the project with Gitea’s fields; anonymous callers read a public organization’s projects', async () => {
  const r = await get(board.id, w.owner.auth);
  assert.is(r.response.status, 200);
  assertSpec('orgGetProject', r);
  const p = r.data!;
  assert.equal({ ...p, creator: p.creator.login }, {
    id: board.id, title: 'Roadmap', description: 'what comes next', owner_id: w.org.id, repo_id: 0, creator: w.owner.username,
    creator_id: w.owner.id, state: 'open', is_closed: false, template_type: 'none', card_type: 'text_only', type: 'organization',
    num_issues: 3, num_open_issues: 2, num_closed_issues: 1, html_url: `${app.config.rootUrl}${w.org.name}/-/projects/${board.id}`,
    created_at: board.created_at, updated_at: p.updated_at, closed_at: null,
  });
  const anon = await get(board.id);
  assert.is(anon.response.status, 200);
  assertSpec('orgGetProject', anon);
});

test('the counts include only the issues the caller can see', async () => {
  assert.equal(counts((await get(board.id, w.planner.auth)).data!), [3, 2, 1], 'planner: every repository');
  assert.equal(counts((await get(board.id, w.admin.auth)).data!), [3, 2, 1], 'site admin');
  for (const [label, auth] of [['viewer', w.viewer.auth], ['outsider', w.outsider.auth], ['anonymous', undefined]] as const) {
    assert.equal(counts((await get(board.id, auth)).data!), [2, 1, 1], `${label}: not the private repository's issue`);
  }
});

test('404: unknown id, another organization’s project, a private organization for outsiders and readers without the unit', async () => {
  assertEmpty404(await get(987654, w.owner.auth), 'unknown');
  const other = await projectWorld(app);
  const theirs = await newProject(app, other);
  const r = await get(theirs.id, w.owner.auth);
  assertEmpty404(r, 'other org');
  assertSpec('orgGetProject', r);
  assertEmpty404(await get(theirs.id, w.owner.auth, w.org.name), 'through the wrong org');
  const secret = await projectWorld(app, 'private');
  const hidden = await newProject(app, secret);
  assert.is((await get(hidden.id, secret.viewer.auth, secret.org.name)).response.status, 200, 'viewer team reads');
  assertEmpty404(await get(hidden.id, secret.outsider.auth, secret.org.name), 'outsider');
  assertEmpty404(await get(hidden.id, undefined, secret.org.name), 'anonymous');
  assert.is((await get(hidden.id, w.admin.auth, secret.org.name)).response.status, 200, 'site admin');
});

test('403: a token without read:organization or read:issue; 422: a non-numeric id', async () => {
  for (const scopes of [['read:issue'], ['read:organization']]) {
    const r = await get(board.id, await app.token(w.owner, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assertSpec('orgGetProject', r);
    assert.match(messageOf(r.error), 'token does not have at least one of required scope(s)');
  }
  assert.is((await get(board.id, await app.token(w.owner, ['read:issue', 'read:organization']))).response.status, 200);
  const bad = await app.client(w.owner.auth).GET('/orgs/{org}/projects/{id}', { params: { path: { org: w.org.name, id: 'x' as unknown as number } } });
  assert.is(bad.response.status, 422);
  assertSpec('orgGetProject', bad);
});

test.run();
