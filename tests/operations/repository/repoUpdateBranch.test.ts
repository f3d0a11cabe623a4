import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eq } from 'drizzle-orm';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import { hookBody, repoHook } from '../../helpers/hooks.js';
import { protectOk } from '../../helpers/pulls.js';
import { pathOf, raw, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { hookDeliveries } from '../../../src/db/schema/index.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

type Body = { new_commit_id: string; old_commit_id?: string; force?: boolean };
const update = (repo: Repository, branch: string, body: Body, auth: string | undefined) =>
  app.client(auth).PUT('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(repo), branch } }, body });

let n = 0;
/** A repository with `main`, a branch `name` at main's tip, a commit `ahead` on top of main and one `aside` beside it. */
async function fixture(opts: { private?: boolean } = {}) {
  const repo = await repoFor(app, r, opts);
  const dir = dirOf(app, repo);
  const name = `feature/t-${n++}`;
  const base = (await disk.tip(dir, 'main'))!;
  await disk.run(dir, ['update-ref', `refs/heads/${name}`, base]);
  const ahead = await disk.commit(dir, 'scratch-ahead', { 'ahead.txt': 'a' }, { from: 'main' });
  const aside = await disk.commit(dir, 'scratch-aside', { 'aside.txt': 'b' }, { from: 'main' });
  return { repo, dir, name, base, ahead, aside };
}

test('204: a writer fast-forwards a branch; git moves it, the branch answers the new commit, a push event and its webhook delivery are recorded', async () => {
  const f = await fixture();
  const hook = await repoHook(app, r.owner.auth, pathOf(f.repo), hookBody('http://127.0.0.1:9/hook', { events: ['push'] }));
  const before = (await eventsOf(app, f.repo.id)).rows.length;
  const res = await update(f.repo, f.name, { new_commit_id: f.ahead }, r.writer.auth);
  assert.is(res.response.status, 204, JSON.stringify(res.error));
  assertSpec('repoUpdateBranch', res);
  assert.is(await res.response.text(), '');
  assert.is(await disk.tip(f.dir, f.name), f.ahead);
  const got = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(f.repo), branch: f.name } } });
  assert.is(got.data!.commit.id, f.ahead, 'the API sees the move (a branch name with a slash)');
  const recorded = (await eventsOf(app, f.repo.id)).rows.slice(before);
  assert.equal(recorded.map((e) => e.type), ['push'], 'one push, as a git push of that commit');
  const deliveries = await app.services.deps.db.select().from(hookDeliveries).where(eq(hookDeliveries.hookId, hook.id));
  assert.is(deliveries.length, 1);
  assert.is(deliveries[0]!.event, 'push');
  const payload = JSON.parse(deliveries[0]!.payload) as { ref: string; before: string; after: string; commits: { id: string }[] };
  assert.equal([payload.ref, payload.before, payload.after], [`refs/heads/${f.name}`, f.base, f.ahead]);
  assert.equal(payload.commits.map((c) => c.id), [f.ahead]);
});

test('204: old_commit_id as compare-and-swap (full or abbreviated); the same commit again changes and records nothing', async () => {
  const f = await fixture();
  const ok = await update(f.repo, f.name, { new_commit_id: f.ahead.slice(0, 10), old_commit_id: f.base }, r.owner.auth);
  assert.is(ok.response.status, 204, JSON.stringify(ok.error));
  assert.is(await disk.tip(f.dir, f.name), f.ahead, 'an abbreviated new_commit_id is resolved');
  const before = (await eventsOf(app, f.repo.id)).rows.length;
  const same = await update(f.repo, f.name, { new_commit_id: f.ahead, old_commit_id: f.ahead.slice(0, 12) }, r.writer.auth);
  assert.is(same.response.status, 204);
  assert.is((await eventsOf(app, f.repo.id)).rows.length, before, 'nothing recorded');
});

test('204 with force: a move that is not a fast-forward; 422 without it, and nothing moves', async () => {
  const f = await fixture();
  await update(f.repo, f.name, { new_commit_id: f.ahead }, r.writer.auth);
  const refused = await update(f.repo, f.name, { new_commit_id: f.aside }, r.writer.auth);
  assert.is(refused.response.status, 422);
  assertSpec('repoUpdateBranch', refused);
  assert.match(JSON.stringify(refused.error), /fast-forward/);
  assert.is(await disk.tip(f.dir, f.name), f.ahead);
  const back = await update(f.repo, f.name, { new_commit_id: f.base, force: false }, r.writer.auth);
  assert.is(back.response.status, 422, 'moving back is no fast-forward either');
  const forced = await update(f.repo, f.name, { new_commit_id: f.aside, force: true }, r.writer.auth);
  assert.is(forced.response.status, 204, JSON.stringify(forced.error));
  assert.is(await disk.tip(f.dir, f.name), f.aside);
});

test('403: protection applies as for a push (no push; push whitelist; force-push), readers, a mirror-less repo; the branch stays', async () => {
  const f = await fixture();
  await protectOk(app, f.repo, r.owner.auth, { rule_name: 'feature/*' });
  const denied = await update(f.repo, f.name, { new_commit_id: f.ahead }, r.owner.auth);
  assert.is(denied.response.status, 403, 'pushes disabled: even the owner, as git push');
  assertSpec('repoUpdateBranch', denied);
  assert.is(await disk.tip(f.dir, f.name), f.base);
  const edit = (body: Record<string, unknown>) =>
    app.client(r.owner.auth).PATCH('/repos/{owner}/{repo}/branch_protections/{name}', { params: { path: { ...pathOf(f.repo), name: 'feature/*' } }, body });
  assert.is((await edit({ enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [r.owner.username] })).response.status, 200);
  assert.is((await update(f.repo, f.name, { new_commit_id: f.ahead }, r.writer.auth)).response.status, 403, 'the writer is not on the whitelist');
  assert.is((await update(f.repo, f.name, { new_commit_id: f.ahead }, r.owner.auth)).response.status, 204, 'the whitelisted owner');
  const noForce = await update(f.repo, f.name, { new_commit_id: f.aside, force: true }, r.owner.auth);
  assert.is(noForce.response.status, 403, 'force-push not enabled by the rule');
  assert.match(JSON.stringify(noForce.error), /force/);
  assert.is((await edit({ enable_force_push: true })).response.status, 200);
  assert.is((await update(f.repo, f.name, { new_commit_id: f.aside, force: true }, r.owner.auth)).response.status, 204, 'force-push allowed');
  assert.is(await disk.tip(f.dir, f.name), f.aside);
  const reader = await update(f.repo, 'main', { new_commit_id: f.ahead }, r.reader.auth);
  assert.is(reader.response.status, 403);
  assertSpec('repoUpdateBranch', reader);
});

test('404: missing branch, unknown commit, outsiders on a private repository, an empty repository; 401 anonymous', async () => {
  const f = await fixture({ private: true });
  const missing = await update(f.repo, 'no-such-branch', { new_commit_id: f.ahead }, r.writer.auth);
  assert.is(missing.response.status, 404);
  assertSpec('repoUpdateBranch', missing);
  for (const id of ['0123456789abcdef0123456789abcdef01234567', 'main', 'HEAD~1', '--help']) {
    const res = await update(f.repo, f.name, { new_commit_id: id }, r.writer.auth);
    assert.is(res.response.status, 404, id);
  }
  assert.is((await update(f.repo, f.name, { new_commit_id: f.ahead }, r.outsider.auth)).response.status, 404);
  const anon = await update(f.repo, f.name, { new_commit_id: f.ahead }, undefined);
  assert.is(anon.response.status, 401);
  assertSpec('repoUpdateBranch', anon);
  const empty = await repoFor(app, r, { auto_init: false });
  assert.is((await update(empty, 'main', { new_commit_id: f.ahead }, r.owner.auth)).response.status, 404);
  assert.is(await disk.tip(f.dir, f.name), f.base);
});

test('409: the branch is not at old_commit_id; nothing moves', async () => {
  const f = await fixture();
  const res = await update(f.repo, f.name, { new_commit_id: f.ahead, old_commit_id: f.aside }, r.writer.auth);
  assert.is(res.response.status, 409);
  assertSpec('repoUpdateBranch', res);
  assert.is(await disk.tip(f.dir, f.name), f.base);
});

test('422: missing or empty new_commit_id; 403 a token without write:repository; 423 archived', async () => {
  const f = await fixture();
  for (const body of ['{}', '{"new_commit_id":""}', '{"new_commit_id":"  "}']) {
    const res = await raw(app, 'PUT', `/repos/${f.repo.full_name}/branches/${f.name}`, { body, authorization: r.writer.auth });
    assert.is(res.response.status, 422, body);
  }
  const token = await app.token(r.writer, ['read:repository']);
  assert.is((await update(f.repo, f.name, { new_commit_id: f.ahead }, token)).response.status, 403);
  await setArchived(app, f.repo, r.owner);
  const archived = await update(f.repo, f.name, { new_commit_id: f.ahead }, r.owner.auth);
  assert.is(archived.response.status, 423);
  assertSpec('repoUpdateBranch', archived);
  assert.is(await disk.tip(f.dir, f.name), f.base);
});

test.run();
