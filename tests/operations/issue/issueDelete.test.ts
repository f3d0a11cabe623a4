import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachmentWorld, newComment, newIssue, storedPath, uploadToIssue, type AttachmentWorld } from '../../helpers/attachments.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: AttachmentWorld;

test.before(async () => {
  app = await startApp();
  w = await attachmentWorld(app);
});
test.after(async () => {
  await app.close();
});

const del = (world: AttachmentWorld, index: number, auth?: string) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...world.path, index } } });
const repoOf = async (world: AttachmentWorld) => (await app.client(world.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: world.path } })).data!;

test('204: the owner, a repository admin, the site admin; the issue, its comments and files go; counters follow', async () => {
  for (const as of [w.owner, w.repoAdmin, w.admin]) {
    const label = (await app.client(w.owner.auth).POST('/repos/{owner}/{repo}/labels', { params: { path: w.path }, body: { name: `l-${as.username}`, color: '#00aabb' } })).data!;
    const ms = (await app.client(w.owner.auth).POST('/repos/{owner}/{repo}/milestones', { params: { path: w.path }, body: { title: `m-${as.username}` } })).data!;
    const before = (await repoOf(w)).open_issues_count;
    const issue = (await app.client(w.writer.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: w.path }, body: { title: 't', labels: [label.id], milestone: ms.id } })).data!;
    const c = await newComment(app, w, issue.number, w.reader);
    const att = (await uploadToIssue(app, w, issue.number, {}, w.writer)).data!;
    assert.is((await repoOf(w)).open_issues_count, before + 1);
    const r = await del(w, issue.number, as.auth);
    assert.is(r.response.status, 204, as.username);
    assertSpec('issueDelete', r);
    assertEmpty404(await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...w.path, index: issue.number } } }));
    assertEmpty404(await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...w.path, id: c.id } } }), 'comment');
    assert.not.ok(existsSync(storedPath(app, att.uuid)), 'attachment file');
    assert.is((await repoOf(w)).open_issues_count, before, 'repository counter');
    const m = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...w.path, id: String(ms.id) } } });
    assert.is(m.data!.open_issues, 0, 'milestone counter');
    assertEmpty404(await del(w, issue.number, as.auth), 'again');
  }
});

test('403: the poster, a writer, a reader; the issue stays', async () => {
  const issue = await newIssue(app, w, w.writer);
  for (const as of [w.writer, w.reader, w.outsider]) {
    const r = await del(w, issue.number, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('issueDelete', r);
  }
  assert.is((await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...w.path, index: issue.number } } })).response.status, 200);
});

test('404 missing, private for an outsider; 401 anonymous; 403 token without write:issue; 423 archived', async () => {
  assertEmpty404(await del(w, 99_999, w.owner.auth));
  const priv = await attachmentWorld(app, { private: true, reuse: w });
  const p = await newIssue(app, priv, priv.owner);
  assertEmpty404(await del(priv, p.number, priv.outsider.auth));
  const i = await newIssue(app, w, w.owner);
  assert.is((await del(w, i.number)).response.status, 401);
  const t = await del(w, i.number, await app.token(w.owner, ['read:issue']));
  assert.is(t.response.status, 403);
  assertSpec('issueDelete', t);
  await editRepo(app, { ...priv.repo, path: priv.path }, { archived: true });
  const a = await del(priv, p.number, priv.owner.auth);
  assert.is(a.response.status, 423);
  assertSpec('issueDelete', a);
});

test.run();
