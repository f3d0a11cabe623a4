// Branch protection enforced where branches change: git pushes over smart HTTP (the pre-receive hook),
// the API's patches and branch deletion, pull request merges (whitelist, status checks, approvals,
// requests for changes, admin override); and Branch answers show the rule and what the caller may do.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { disk, roles, type Roles } from '../helpers/gitFixtures.js';
import { gitWorkspace } from '../helpers/events.js';
import { addFile, getPull, mergePull, patch, protectOk, pullFixture, review } from '../helpers/pulls.js';
import { report } from '../helpers/statuses.js';

let app: TestApp;
let r: Roles;
let ws: ReturnType<typeof gitWorkspace>;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  ws = gitWorkspace(app);
});
test.after(async () => {
  ws.close();
  await app.close();
});

test('git push over HTTP: refused without enable_push, allowed for the whitelist, never a force push or a deletion', async () => {
  const f = await pullFixture(app, r);
  await protectOk(app, f.repo, r.owner.auth, { rule_name: 'main' });
  const clone = await ws.clone(ws.remote(r.writer, f.repo.path.owner, f.repo.path.repo));
  await ws.commit(clone, 'w.txt', 'w\n', 'by the writer');
  const denied = await ws.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is.not(denied.code, 0);
  assert.match(denied.stderr, 'you may not push to the protected branch main');
  assert.is(await disk.tip(f.dir, 'main'), f.base, 'main did not move');
  const other = await ws.run(['push', 'origin', 'HEAD:elsewhere'], clone);
  assert.is(other.code, 0, `an unprotected branch: ${other.stderr}`);

  await app.client(r.owner.auth).PATCH('/repos/{owner}/{repo}/branch_protections/{name}', {
    params: { path: { ...f.repo.path, name: 'main' } }, body: { enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [r.owner.username] },
  });
  assert.is.not((await ws.run(['push', 'origin', 'HEAD:main'], clone)).code, 0, 'the writer is not on the whitelist');
  const ownerClone = await ws.clone(ws.remote(r.owner, f.repo.path.owner, f.repo.path.repo));
  const tip = await ws.commit(ownerClone, 'o.txt', 'o\n', 'by the owner');
  assert.is((await ws.run(['push', 'origin', 'HEAD:main'], ownerClone)).code, 0, 'whitelisted');
  assert.is(await disk.tip(f.dir, 'main'), tip);
  await ws.must(['reset', '-q', '--hard', 'HEAD~1'], ownerClone);
  await ws.commit(ownerClone, 'x.txt', 'x\n', 'rewritten');
  const forced = await ws.run(['push', '-f', 'origin', 'HEAD:main'], ownerClone);
  assert.is.not(forced.code, 0);
  assert.match(forced.stderr, 'force pushes to the protected branch main are not allowed');
  const deleted = await ws.run(['push', 'origin', ':main'], ownerClone);
  assert.is.not(deleted.code, 0);
  assert.is(await disk.tip(f.dir, 'main'), tip, 'neither rewritten nor deleted');
});

test('globs: release/* protects release/1 but not release/x/y; the API\'s patch and branch deletion answer 403', async () => {
  const f = await pullFixture(app, r);
  await patch(app, f.repo, r.writer, addFile('r.txt', ['r']), { newBranch: 'release/1' });
  await protectOk(app, f.repo, r.owner.auth, { rule_name: 'release/*' });
  const res = await app.client(r.writer.auth).POST('/repos/{owner}/{repo}/diffpatch', {
    params: { path: f.repo.path }, body: { content: addFile('s.txt', ['s']), branch: 'release/1' },
  });
  assert.is(res.response.status, 403);
  const del = await app.client(r.owner.auth).DELETE('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...f.repo.path, branch: 'release/1' } } });
  assert.is(del.response.status, 403);
  await patch(app, f.repo, r.writer, addFile('t.txt', ['t']), { newBranch: 'release/x/y' });
  const branch = await app.client(r.writer.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...f.repo.path, branch: 'release/1' } } });
  assert.equal(
    [branch.data!.protected, branch.data!.effective_branch_protection_name, branch.data!.user_can_push, branch.data!.user_can_merge],
    [true, 'release/*', false, true],
  );
  const deep = await app.client(r.writer.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...f.repo.path, branch: 'release/x/y' } } });
  assert.is(deep.data!.protected, false, '* stays within a path segment');
});

test('merges: required approvals, status checks, requests for changes; an admin\'s force_merge overrides', async () => {
  const f = await pullFixture(app, r);
  await protectOk(app, f.repo, r.owner.auth, {
    rule_name: 'main', enable_push: true, required_approvals: 1, enable_status_check: true, status_check_contexts: ['ci/*'], block_on_rejected_reviews: true,
  });
  const branch = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...f.repo.path, branch: 'main' } } });
  assert.equal([branch.data!.required_approvals, branch.data!.enable_status_check, branch.data!.status_check_contexts], [1, true, ['ci/*']]);
  const attempt = async () => {
    const res = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge' });
    return [res.response.status, (res.error as { message?: string } | undefined)?.message ?? ''] as const;
  };
  let [status, message] = await attempt();
  assert.equal([status, message], [405, 'Not all required status checks successful']);
  await report(app, r.writer.auth, f.repo, f.head, { state: 'success', context: 'ci/build' });
  [status, message] = await attempt();
  assert.is(status, 405);
  assert.match(message, 'Does not have enough approvals');
  await review(app, f, r.reader.auth, { event: 'APPROVED' });
  assert.match((await attempt())[1], 'Does not have enough approvals', 'a reader\'s approval is not official');
  await review(app, f, r.owner.auth, { event: 'REQUEST_CHANGES', body: 'wait' });
  assert.match((await attempt())[1], 'Does not have enough approvals');
  const forced = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge', force_merge: true });
  assert.is(forced.response.status, 405, 'force_merge is for repository admins');
  await review(app, f, r.owner.auth, { event: 'APPROVED' });
  assert.equal(await attempt(), [200, ''], 'approved by the owner (their latest review), checks green');
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, true);

  const g = await pullFixture(app, r);
  await protectOk(app, g.repo, r.owner.auth, { rule_name: 'main', enable_push: true, required_approvals: 2 });
  const admin = await mergePull(app, g.repo, r.owner.auth, g.pr.number, { Do: 'merge', force_merge: true });
  assert.is(admin.response.status, 200, 'the owner overrides');
});

test('merges: the merge whitelist decides who may merge', async () => {
  const f = await pullFixture(app, r);
  await protectOk(app, f.repo, r.owner.auth, { rule_name: 'main', enable_merge_whitelist: true, merge_whitelist_usernames: [r.reader.username] });
  const writer = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge' });
  assert.equal([writer.response.status, (writer.error as { message: string }).message], [405, 'User not allowed to merge PR']);
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, false, 'the refused merge left it open');
  const reader = await mergePull(app, f.repo, r.reader.auth, f.pr.number, { Do: 'merge' });
  assert.is(reader.response.status, 200, 'whitelisted, although only a reader');
  // It merged: the pull says so, by the reader, and main is the merge commit, with the head in its history.
  const merged = await getPull(app, f.repo, f.pr.number);
  assert.is(merged.merged, true);
  assert.is(merged.merged_by!.login, r.reader.username);
  assert.is(await disk.tip(f.dir, 'main'), merged.merge_commit_sha);
  assert.is((await disk.run(f.dir, ['merge-base', '--is-ancestor', f.head, 'main']).then(() => 0, () => 1)), 0, 'the head is in main');
});

test('git push over HTTP: a force push goes through for the force-push allowlist only', async () => {
  const f = await pullFixture(app, r);
  await protectOk(app, f.repo, r.owner.auth, {
    rule_name: 'main', enable_push: true, enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: [r.owner.username],
  });
  // The writer may push (a fast-forward) but is not on the force-push allowlist.
  const writerClone = await ws.clone(ws.remote(r.writer, f.repo.path.owner, f.repo.path.repo));
  const ff = await ws.commit(writerClone, 'w.txt', 'w\n', 'by the writer');
  assert.is((await ws.run(['push', 'origin', 'HEAD:main'], writerClone)).code, 0, 'a fast-forward by the writer');
  assert.is(await disk.tip(f.dir, 'main'), ff);
  await ws.must(['reset', '-q', '--hard', 'HEAD~1'], writerClone);
  await ws.commit(writerClone, 'x.txt', 'x\n', 'rewritten by the writer');
  const refused = await ws.run(['push', '-f', 'origin', 'HEAD:main'], writerClone);
  assert.is.not(refused.code, 0, 'the writer may not force-push');
  assert.match(refused.stderr, 'force pushes to the protected branch main are not allowed');
  assert.is(await disk.tip(f.dir, 'main'), ff, 'main not rewritten');
  // The owner, on the allowlist, rewrites main.
  const ownerClone = await ws.clone(ws.remote(r.owner, f.repo.path.owner, f.repo.path.repo));
  await ws.must(['reset', '-q', '--hard', 'HEAD~1'], ownerClone);
  const rewritten = await ws.commit(ownerClone, 'o.txt', 'o\n', 'rewritten by the owner');
  const forced = await ws.run(['push', '-f', 'origin', 'HEAD:main'], ownerClone);
  assert.is(forced.code, 0, `the allowlisted owner force-pushes: ${forced.stderr}`);
  assert.is(await disk.tip(f.dir, 'main'), rewritten, 'main is the rewritten history');
  assert.is((await disk.run(f.dir, ['merge-base', '--is-ancestor', ff, 'main']).then(() => 0, () => 1)), 1, 'the writer\'s commit is gone from main');
  assert.is.not((await ws.run(['push', 'origin', ':main'], ownerClone)).code, 0, 'deletion is still refused');
});

test.run();
