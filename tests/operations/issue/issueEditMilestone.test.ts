import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editIssue, editRepo, getMilestone, newIssue, newMilestone, people, sharedRepo, type People, type Repo,
} from '../../helpers/issues.js';
import { messageOf, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type EditMilestoneOption = components['schemas']['EditMilestoneOption'];

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

const edit = (repo: Repo, id: string | number, body: EditMilestoneOption, authorization?: string) =>
  app.client(authorization).PATCH('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...repo.path, id: String(id) } }, body });

async function edited(repo: Repo, id: string | number, body: EditMilestoneOption, as = p.writer) {
  const r = await edit(repo, id, body, as.auth);
  assert.is(r.response.status, 200, `${id} ${JSON.stringify(body)} → ${r.response.status} ${JSON.stringify(r.error)}`);
  assertSpec('issueEditMilestone', r);
  return r.data!;
}

test('200: {id} in decimal, 0x, 0o and 0b forms, or else the exact title', async () => {
  const m = await newMilestone(app, pub, p.writer, { title: 'by-forms' });
  const forms = [String(m.id), `0x${m.id.toString(16)}`, `0o${m.id.toString(8)}`, `0b${m.id.toString(2)}`, 'by-forms'];
  for (const [k, id] of forms.entries()) {
    const out = await edited(pub, id, { description: `via ${id}` });
    assert.is(out.id, m.id, id);
    assert.is(out.description, `via ${id}`);
    assert.is(out.title, 'by-forms', `${k}: the title stays`);
  }
  const numeric = await newMilestone(app, pub, p.writer, { title: '424242' });
  assert.is((await edited(pub, '424242', { description: 'by title' })).id, numeric.id, 'a numeric title when no such id');
  assert.is((await getMilestone(app, pub, numeric.id)).description, 'by title');
});

test('200: title, description and due_on change (due_on stored as given); omitted fields stay; empty title keeps it', async () => {
  const m = await newMilestone(app, pub, p.writer, { title: 'before', description: 'old', due_on: '2030-01-01T00:00:00Z' });
  const a = await edited(pub, m.id, { title: 'after', description: 'new', due_on: '2031-02-03T04:05:06Z' });
  assert.equal([a.title, a.description, a.due_on, a.state], ['after', 'new', '2031-02-03T04:05:06Z', 'open']);
  assert.ok(Date.parse(a.updated_at) >= Date.parse(m.updated_at));
  assert.equal(await getMilestone(app, pub, m.id), a, 'read-after-write');
  const b = await edited(pub, m.id, { title: '', description: '' });
  assert.equal([b.title, b.description, b.due_on], ['after', '', '2031-02-03T04:05:06Z']);
  const c = await edited(pub, m.id, {});
  assert.equal([c.title, c.description, c.due_on, c.state], ['after', '', '2031-02-03T04:05:06Z', 'open']);
});

test('200: state closed sets closed_at, open clears it; open_issues / closed_issues stay exact', async () => {
  const m = await newMilestone(app, pub, p.writer, { title: 'counted' });
  const [x, , z] = [await newIssue(app, pub, p.writer, { milestone: m.id }), await newIssue(app, pub, p.writer, { milestone: m.id }), await newIssue(app, pub, p.writer, { milestone: m.id })];
  await editIssue(app, pub, x.number, p.writer, { state: 'closed' });
  const closed = await edited(pub, m.id, { state: 'closed' });
  assert.is(closed.state, 'closed');
  assert.ok(closed.closed_at && Date.parse(closed.closed_at) >= Date.parse(m.created_at));
  assert.equal([closed.open_issues, closed.closed_issues], [2, 1]);
  const again = await edited(pub, m.id, { state: 'closed', description: 'still closed' });
  assert.is(again.closed_at, closed.closed_at, 'closing again keeps the first closed_at');
  await editIssue(app, pub, z.number, p.writer, { state: 'closed' });
  await editIssue(app, pub, x.number, p.writer, { milestone: 0 });
  const reopened = await edited(pub, m.id, { state: 'open' });
  assert.equal([reopened.state, reopened.closed_at, reopened.open_issues, reopened.closed_issues], ['open', null, 1, 1]);
});

test('200: the owner and the site admin; a writer of a private repository', async () => {
  const m = await newMilestone(app, pub, p.writer, { title: 'roles' });
  assert.is((await edited(pub, m.id, { description: 'owner' }, p.owner)).description, 'owner');
  assert.is((await edited(pub, m.id, { description: 'admin' }, p.admin)).description, 'admin');
  const s = await newMilestone(app, priv, p.owner, { title: 'secret' });
  assert.is((await edited(priv, s.id, { title: 'renamed' }, p.writer)).title, 'renamed');
});

test('403: a reader and an outsider of a public repository; nothing changes', async () => {
  const m = await newMilestone(app, pub, p.writer, { title: 'guarded' });
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await edit(pub, m.id, { title: 'nope', state: 'closed' }, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueEditMilestone', r);
    assert.equal(r.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
  }
  const after = await getMilestone(app, pub, m.id);
  assert.equal([after.title, after.state], ['guarded', 'open']);
});

test('404: unknown id or title, a milestone of another repository, private for an outsider', async () => {
  const s = await newMilestone(app, priv, p.owner, { title: 'elsewhere' });
  for (const id of ['999999', 'no-such-title', String(s.id), 'elsewhere', '0']) {
    const r = await edit(pub, id, { title: 'x' }, p.admin.auth);
    assertEmpty404(r, id);
    assertSpec('issueEditMilestone', r);
  }
  assertEmpty404(await edit(priv, s.id, { title: 'x' }, p.outsider.auth), 'private outsider');
  assert.is((await getMilestone(app, priv, s.id, p.owner)).title, 'elsewhere');
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const m = await newMilestone(app, pub, p.writer, { title: 'tokens' });
  const anon = await edit(pub, m.id, { title: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('issueEditMilestone', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  const r = await edit(pub, m.id, { title: 'x' }, await app.token(p.writer, ['read:issue', 'write:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueEditMilestone', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
});

test('422: an unknown state, a bad due_on', async () => {
  const m = await newMilestone(app, pub, p.writer, { title: 'strict' });
  for (const body of ['{"state":"finished"}', '{"due_on":"soon"}', '{"title":7}']) {
    const r = await raw(app, 'PATCH', `/repos/${pub.full_name}/milestones/${m.id}`, { body, authorization: p.writer.auth });
    assert.is(r.response.status, 422, body);
    assert.is(r.body.url, swaggerOf(app));
  }
});

test('units: neither issues nor pull requests → 404', async () => {
  const repo = await sharedRepo(app, p);
  const m = await newMilestone(app, repo, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assert.is((await edit(repo, m.id, { description: 'pulls are enough' }, p.writer.auth)).response.status, 200);
  await editRepo(app, repo, { has_pull_requests: false });
  assertEmpty404(await edit(repo, m.id, { title: 'x' }, p.owner.auth), 'neither unit');
});

test.run();
