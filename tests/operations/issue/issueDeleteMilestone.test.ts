import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eq } from 'drizzle-orm';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, getIssue, newIssue, newMilestone, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { repositories } from '../../../src/db/schema/index.js';
import { assertSpec } from '../../helpers/spec-check.js';

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

const del = (repo: Repo, id: string | number, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...repo.path, id: String(id) } } });
const milestoneStatus = async (repo: Repo, id: number) =>
  (await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...repo.path, id: String(id) } } })).response.status;

test('204: a writer deletes a milestone by id; its issues stay without it and the issue counts do not move; then 404', async () => {
  const m = await newMilestone(app, pub, p.owner, { title: 'doomed' });
  const issue = await newIssue(app, pub, p.owner, { milestone: m.id });
  const [before] = await app.services.deps.db.select().from(repositories).where(eq(repositories.id, pub.id));
  const r = await del(pub, m.id, p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('issueDeleteMilestone', r);
  assert.is(await milestoneStatus(pub, m.id), 404);
  const after = await getIssue(app, pub, issue.number);
  assert.is(after.milestone, null);
  assert.is(after.state, 'open');
  const [repoRow] = await app.services.deps.db.select().from(repositories).where(eq(repositories.id, pub.id));
  assert.is(repoRow!.numIssues, before!.numIssues);
  assertEmpty404(await del(pub, m.id, p.writer.auth), 'already deleted');
});

test('204: by exact title and by a 0x id; the owner and the site admin', async () => {
  const [a, b] = await Promise.all([newMilestone(app, pub, p.owner, { title: 'by title' }), newMilestone(app, pub, p.owner, { title: 'by hex' })]);
  assert.is((await del(pub, 'by title', p.owner.auth)).response.status, 204);
  assert.is(await milestoneStatus(pub, a.id), 404);
  assert.is((await del(pub, `0x${b.id.toString(16)}`, p.admin.auth)).response.status, 204);
  assert.is(await milestoneStatus(pub, b.id), 404);
});

test('403: a reader and an outsider; 401: anonymous', async () => {
  const m = await newMilestone(app, pub, p.owner);
  for (const [who, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await del(pub, m.id, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('issueDeleteMilestone', r);
  }
  assert.is((await del(pub, m.id)).response.status, 401);
  assert.is(await milestoneStatus(pub, m.id), 200);
});

test('404: a private repository for an outsider, a milestone of another repository, an unknown title; 423: an archived repository', async () => {
  const secret = await newMilestone(app, priv, p.owner);
  assertEmpty404(await del(priv, secret.id, p.outsider.auth), 'outsider');
  const r = await del(pub, secret.id, p.owner.auth);
  assertEmpty404(r, 'another repository');
  assertSpec('issueDeleteMilestone', r);
  assertEmpty404(await del(pub, 'no such title', p.owner.auth), 'unknown');
  const repo = await sharedRepo(app, p);
  const m = await newMilestone(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const archived = await del(repo, m.id, p.owner.auth);
  assert.is(archived.response.status, 423);
  assertSpec('issueDeleteMilestone', archived);
});

test.run();
