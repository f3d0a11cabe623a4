import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, getMilestone, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { messageOf, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type CreateMilestoneOption = components['schemas']['CreateMilestoneOption'];

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const create = (repo: Repo, body: CreateMilestoneOption, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/milestones', { params: { path: repo.path }, body });

test('201: writers, the owner and the site admin create milestones; open, no due date, zero counts', async () => {
  for (const [label, as] of [['writer', p.writer], ['owner', p.owner], ['site admin', p.admin]] as const) {
    const t0 = Date.now() - 1000;
    const r = await create(pub, { title: `by ${label}`, description: `made by ${label}` }, as.auth);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueCreateMilestone', r);
    const m = r.data!;
    assert.equal(m, {
      id: m.id, title: `by ${label}`, description: `made by ${label}`, state: 'open', open_issues: 0, closed_issues: 0,
      created_at: m.created_at, updated_at: m.updated_at, closed_at: null, due_on: null,
    });
    assert.ok(Date.parse(m.created_at) >= t0 - 1000);
    assert.equal(await getMilestone(app, pub, m.id), m, `${label}: read-after-write`);
  }
  assert.is((await create(priv, { title: 'private' }, p.writer.auth)).response.status, 201);
});

test('201: due_on stored as given; state closed creates it closed with closed_at; titles need not be unique', async () => {
  const due = await create(pub, { title: 'same', due_on: '2030-06-07T08:09:10Z' }, p.writer.auth);
  assert.is(due.response.status, 201);
  assert.is(due.data!.due_on, '2030-06-07T08:09:10Z');
  const closed = await create(pub, { title: 'same', state: 'closed' }, p.writer.auth);
  assert.is(closed.response.status, 201);
  assertSpec('issueCreateMilestone', closed);
  assert.is(closed.data!.state, 'closed');
  assert.ok(closed.data!.closed_at);
  assert.is.not(closed.data!.id, due.data!.id);
});

test('403: a reader and an outsider of a public repository', async () => {
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await create(pub, { title: 'nope' }, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueCreateMilestone', r);
    assert.equal(r.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
  }
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const anon = await create(pub, { title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('issueCreateMilestone', anon);
  const r = await create(pub, { title: 'x' }, await app.token(p.writer, ['read:issue']));
  assert.is(r.response.status, 403);
  assertSpec('issueCreateMilestone', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
});

test('404: a private repository for an outsider; neither issues nor pull requests', async () => {
  const r = await create(priv, { title: 'x' }, p.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('issueCreateMilestone', r);
  const repo = await sharedRepo(app, p);
  await editRepo(app, repo, { has_issues: false, has_pull_requests: false });
  assertEmpty404(await create(repo, { title: 'x' }, p.owner.auth), 'neither unit');
});

test('422: empty, blank or missing title, bad state or date', async () => {
  for (const [label, body] of [
    ['empty', '{"title":""}'], ['blank', '{"title":"  "}'], ['missing', '{}'], ['state', '{"title":"x","state":"done"}'], ['date', '{"title":"x","due_on":"tomorrow"}'],
  ]) {
    const r = await raw(app, 'POST', `/repos/${pub.full_name}/milestones`, { body, authorization: p.writer.auth });
    assert.is(r.response.status, 422, `${label}: ${r.response.status}`);
    assert.is(r.body.url, swaggerOf(app));
  }
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  await editRepo(app, repo, { archived: true });
  const r = await create(repo, { title: 'x' }, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueCreateMilestone', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
});

test.run();
