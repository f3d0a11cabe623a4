import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, editRepo, newIssue, newMilestone, people, sharedRepo, type Milestone, type People, type Repo } from '../../helpers/issues.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
let ms: Milestone;
let secret: Milestone;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  ms = await newMilestone(app, pub, p.writer, { title: 'v1.0', description: 'first', due_on: '2030-02-03T04:05:06Z' });
  await newIssue(app, pub, p.writer, { milestone: ms.id });
  const closed = await newIssue(app, pub, p.writer, { milestone: ms.id });
  await editIssue(app, pub, closed.number, p.writer, { state: 'closed' });
  secret = await newMilestone(app, priv, p.owner, { title: 'secret' });
});
test.after(async () => {
  await app.close();
});

const get = (repo: Repo, id: string | number, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...repo.path, id: String(id) } } });

test('200: by id in decimal, 0x, 0o and 0b forms, and by exact title; exact counts', async () => {
  const forms = [String(ms.id), `0x${ms.id.toString(16)}`, `0X${ms.id.toString(16).toUpperCase()}`, `0o${ms.id.toString(8)}`, `0b${ms.id.toString(2)}`, 'v1.0'];
  for (const id of forms) {
    const r = await get(pub, id, p.reader.auth);
    assert.is(r.response.status, 200, id);
    assertSpec('issueGetMilestone', r);
    assert.is(r.data!.id, ms.id, id);
  }
  const m = (await get(pub, ms.id)).data!;
  assert.equal(m, {
    id: ms.id, title: 'v1.0', description: 'first', state: 'open', open_issues: 1, closed_issues: 1,
    created_at: ms.created_at, updated_at: m.updated_at, closed_at: null, due_on: '2030-02-03T04:05:06Z',
  });
});

test('200: a title that looks like a number is found by title when no milestone has that id', async () => {
  const numeric = await newMilestone(app, pub, p.writer, { title: '987654' });
  assert.is((await get(pub, '987654')).data!.id, numeric.id);
  const hex = await newMilestone(app, pub, p.writer, { title: '0x0' });
  assert.is((await get(pub, '0x0')).data!.id, hex.id, 'id 0 falls back to the title');
});

test('200: every role that can read', async () => {
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['writer', p.writer.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    assert.is((await get(pub, ms.id, auth)).response.status, 200, label);
  }
  for (const [label, auth] of [['reader', p.reader.auth], ['site admin', p.admin.auth]] as const) assert.is((await get(priv, secret.id, auth)).data!.title, 'secret', label);
});

test('404: unknown id or title, a milestone of another repository, a title that differs in case, private for anonymous and outsider, neither unit', async () => {
  for (const id of ['999999', 'V1.0', 'nope', String(secret.id), 'secret']) {
    const r = await get(pub, id, p.admin.auth);
    assertEmpty404(r, id);
    assertSpec('issueGetMilestone', r);
  }
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth]] as const) assertEmpty404(await get(priv, secret.id, auth), label);
  const repo = await sharedRepo(app, p);
  const m = await newMilestone(app, repo, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assert.is((await get(repo, m.id, p.reader.auth)).response.status, 200, 'pull requests are enough');
  await editRepo(app, repo, { has_pull_requests: false });
  assertEmpty404(await get(repo, m.id, p.owner.auth), 'neither unit');
});

test('403: a token without an issue scope', async () => {
  const r = await get(pub, ms.id, await app.token(p.reader, ['read:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueGetMilestone', r);
  assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
});

test.run();
