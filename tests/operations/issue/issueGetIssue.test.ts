import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachments, pullRequests } from '../../../src/db/schema/index.js';
import { withTx } from '../../../src/db/tx.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editIssue, editRepo, newComment, newIssue, newLabel, newMilestone, people, sharedRepo, type People, type Repo,
} from '../../helpers/issues.js';
import { messageOf, raw, swaggerOf } from '../../helpers/repos.js';
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

const get = (repo: Repo | { path: { owner: string; repo: string } }, index: number, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index } } });

/** A pull request's issue row, made through the service layer (pull request creation has tests of its own). */
async function pullIndex(repo: Repo): Promise<number> {
  const owner = (await app.services.users.byId(p.owner.id))!;
  const loaded = await app.services.repos.load(repo.path.owner, repo.path.repo, owner);
  return withTx(app.services.deps.db, async (tx) => {
    const row = await app.services.issues.create(loaded, owner, { title: 'a pull' }, { tx });
    await tx.insert(pullRequests).values({ issueId: row.id, repoId: row.repoId, headRepoId: row.repoId, headBranch: 'feature', baseBranch: 'main', isDraft: true });
    return row.index;
  });
}

test('200: the complete Issue — labels, milestone, assignees, assets, counts, urls, repository meta', async () => {
  const [bug, docs] = [await newLabel(app, pub, p.writer, { name: 'bug' }), await newLabel(app, pub, p.writer, { name: 'docs', color: '00aabb' })];
  const ms = await newMilestone(app, pub, p.writer, { title: 'v1', description: 'first' });
  const created = await newIssue(app, pub, p.writer, {
    title: 'full', body: 'text', ref: 'refs/heads/main', labels: [docs.id, bug.id], milestone: ms.id, assignees: [p.writer.username, p.owner.username],
    due_date: '2030-01-02T03:04:05Z',
  });
  await newComment(app, pub, created.number, p.reader, 'one');
  await newComment(app, pub, created.number, p.outsider, 'two');
  await editIssue(app, pub, created.number, p.writer, { body: 'text v2' });
  const [asset] = await app.services.deps.db.insert(attachments)
    .values({ uuid: randomUUID(), repoId: pub.id, issueId: created.id, uploaderId: p.writer.id, name: 'log.txt', size: 12 }).returning();

  const r = await get(pub, created.number, p.reader.auth);
  assert.is(r.response.status, 200);
  assertSpec('issueGetIssue', r);
  const i = r.data!;
  const root = app.config.rootUrl;
  assert.is(i.id, created.id);
  assert.is(i.number, created.number);
  assert.is(i.url, `${root}api/v1/repos/${pub.full_name}/issues/${created.number}`);
  assert.is(i.html_url, `${root}${pub.full_name}/issues/${created.number}`);
  assert.is(i.title, 'full');
  assert.is(i.body, 'text v2');
  assert.is(i.ref, 'refs/heads/main');
  assert.is(i.state, 'open');
  assert.is(i.user.login, p.writer.username);
  assert.equal(i.labels.map((l) => l.name), ['bug', 'docs'], 'labels by name');
  assert.equal(i.labels[1], { id: docs.id, name: 'docs', exclusive: false, is_archived: false, color: '00aabb', description: '', url: `${root}api/v1/repos/${pub.full_name}/labels/${docs.id}` });
  assert.is(i.milestone!.id, ms.id);
  assert.is(i.milestone!.title, 'v1');
  assert.is(i.milestone!.open_issues, 1);
  assert.is(i.milestone!.closed_issues, 0);
  assert.equal(i.assignees.map((u) => u.login).sort(), [p.writer.username, p.owner.username].sort());
  assert.is(i.assignee!.login, i.assignees[0]!.login);
  assert.equal(i.assets, [{
    id: asset!.id, name: 'log.txt', size: 12, download_count: 0, created_at: i.assets[0]!.created_at, uuid: asset!.uuid,
    browser_download_url: `${root}attachments/${asset!.uuid}`,
  }]);
  assert.is(i.comments, 2);
  assert.is(i.content_version, 1, 'one body edit');
  assert.is(i.time_estimate, 0);
  assert.is(i.pin_order, 0);
  assert.is(i.is_locked, false);
  assert.is(i.pull_request, null, 'an issue has no pull_request');
  assert.equal(i.repository, { id: pub.id, name: pub.name, owner: pub.owner.login, full_name: pub.full_name });
  assert.is(i.closed_at, null);
  assert.is(Date.parse(i.due_date!), Date.parse('2030-01-02T03:04:05Z'));
  assert.is(i.original_author, '');
  assert.is(i.original_author_id, 0);
  assert.equal(i.projects, []);
  assert.ok(Date.parse(i.updated_at) >= Date.parse(i.created_at));
});

test('200: a closed issue has state closed and closed_at', async () => {
  const issue = await newIssue(app, pub, p.reader);
  await editIssue(app, pub, issue.number, p.reader, { state: 'closed' });
  const r = await get(pub, issue.number);
  assertSpec('issueGetIssue', r);
  assert.is(r.data!.state, 'closed');
  assert.ok(r.data!.closed_at && Date.parse(r.data!.closed_at) >= Date.parse(issue.created_at));
});

test('200: a pull request index carries pull_request meta and the pulls html_url', async () => {
  const index = await pullIndex(pub);
  const r = await get(pub, index);
  assert.is(r.response.status, 200);
  assertSpec('issueGetIssue', r);
  const html = `${app.config.rootUrl}${pub.full_name}/pulls/${index}`;
  assert.is(r.data!.html_url, html);
  assert.equal(r.data!.pull_request, { merged: false, merged_at: null, draft: true, html_url: html });
});

test('200: every role that can read — anonymous, outsider, reader, writer, owner, site admin (public); members and admin (private)', async () => {
  const [onPub, onPriv] = await Promise.all([newIssue(app, pub, p.owner), newIssue(app, priv, p.owner)]);
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['reader', p.reader.auth], ['writer', p.writer.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    const r = await get(pub, onPub.number, auth);
    assert.is(r.response.status, 200, label);
    assertSpec('issueGetIssue', r);
    assert.is(r.data!.id, onPub.id, label);
  }
  for (const [label, auth] of [['reader', p.reader.auth], ['writer', p.writer.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    const r = await get(priv, onPriv.number, auth);
    assert.is(r.response.status, 200, `private: ${label}`);
    assert.is(r.data!.id, onPriv.id);
  }
  // Tokens with read:issue are enough.
  assert.is((await get(priv, onPriv.number, await app.token(p.reader, ['read:issue']))).response.status, 200);
});

test('404: missing index, unknown repository, private repository for anonymous and outsider', async () => {
  const issue = await newIssue(app, priv, p.owner);
  assertEmpty404(await get(pub, 999_999, p.owner.auth), 'missing index');
  assertEmpty404(await get({ path: { owner: p.owner.username, repo: 'nope' } }, 1, p.admin.auth), 'unknown repository');
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth]] as const) {
    const r = await get(priv, issue.number, auth);
    assertEmpty404(r, label);
    assertSpec('issueGetIssue', r);
  }
});

test('404: the issues unit disabled hides issues from everybody, owner and admin included; pull requests stay', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.owner);
  const pull = await pullIndex(repo);
  await editRepo(app, repo, { has_issues: false });
  for (const [label, auth] of [['anonymous', undefined], ['reader', p.reader.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    assertEmpty404(await get(repo, issue.number, auth), label);
    assert.is((await get(repo, pull, auth)).response.status, 200, `${label}: pull request`);
  }
  await editRepo(app, repo, { has_issues: true, has_pull_requests: false });
  assert.is((await get(repo, issue.number, p.reader.auth)).response.status, 200);
  assertEmpty404(await get(repo, pull, p.owner.auth), 'pulls disabled: the pull request index');
});

test('403: a token without an issue scope; 401: a bad token', async () => {
  const issue = await newIssue(app, pub, p.owner);
  const r = await get(pub, issue.number, await app.token(p.reader, ['read:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueGetIssue', r);
  assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
  const bad = await get(pub, issue.number, 'token 0000000000000000000000000000000000000000');
  assert.is(bad.response.status, 401);
  assertSpec('issueGetIssue', bad);
  assert.type(messageOf(bad.error), 'string');
});

test('422: an index that is not an integer', async () => {
  const r = await raw(app, 'GET', `/repos/${pub.full_name}/issues/abc`, { authorization: p.owner.auth });
  assert.is(r.response.status, 422);
  assert.is(r.body.url, swaggerOf(app));
});

test.run();
