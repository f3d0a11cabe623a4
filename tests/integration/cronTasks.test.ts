// Each cron task that works in anvil: make the condition it mends, run the task through the API, see it mended.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { activities, hookDeliveries, issues, labels, milestones, repositories, users } from '../../src/db/schema/index.js';
import { git } from '../../src/git/core.js';
import { repoDir } from '../../src/git/paths.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin', 'read:admin']);
});
test.after(async () => {
  await app.close();
});

const db = () => app.services.deps.db;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

/** Runs the task through the API; answers its recorded result. */
async function run(task: string): Promise<string> {
  const res = await app.client(asAdmin).POST('/admin/cron/{task}', { params: { path: { task } } });
  assert.is(res.response.status, 204, task);
  const record = (await app.services.cron.record(task))!;
  assert.is(record.lastStatus, 'ok', `${task}: ${record.lastMessage}`);
  return record.lastMessage;
}

const dirOf = (owner: string, name: string) => repoDir(app.config.dataDir, owner, name);

test('check_repo_stats: drifted counters of repositories, milestones, labels and issues are recounted', async () => {
  const owner = await actor(app);
  const repo = await userRepo(app, owner);
  const c = app.client(owner.auth);
  const path = { owner: owner.username, repo: repo.name };
  const ms = (await c.POST('/repos/{owner}/{repo}/milestones', { params: { path }, body: { title: 'v1' } })).data!;
  const label = (await c.POST('/repos/{owner}/{repo}/labels', { params: { path }, body: { name: 'bug', color: '#ff0000' } })).data!;
  const one = (await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'one', milestone: ms.id, labels: [label.id] } })).data!;
  const two = (await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'two' } })).data!;
  await c.PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...path, index: two.number } }, body: { state: 'closed' } });
  await c.POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...path, index: one.number } }, body: { body: 'hi' } });
  assert.match(await run('check_repo_stats'), /^every counter was right$/, 'nothing to mend yet');

  await db().update(repositories).set({ numIssues: 9, numClosedIssues: 0, numWatches: 5, numStars: 3 }).where(eq(repositories.id, repo.id));
  await db().update(milestones).set({ numIssues: 4 }).where(eq(milestones.id, ms.id));
  await db().update(labels).set({ numIssues: 0, numClosedIssues: 2 }).where(eq(labels.id, label.id));
  await db().update(issues).set({ numComments: 7 }).where(eq(issues.id, one.id));
  const result = await run('check_repo_stats');
  for (const kind of ['repository issue and pull counts', 'repository watcher counts', 'repository star counts', 'milestone issue counts', 'label issue counts', 'issue comment counts']) {
    assert.ok(result.includes(`${kind} of 1 row`), `${kind} in: ${result}`);
  }
  const shown = (await c.GET('/repos/{owner}/{repo}', { params: { path } })).data!;
  assert.equal([shown.open_issues_count, shown.watchers_count, shown.stars_count], [1, 1, 0]);
  const m = (await c.GET('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...path, id: String(ms.id) } } })).data!;
  assert.equal([m.open_issues, m.closed_issues], [1, 0]);
  const [l] = await db().select().from(labels).where(eq(labels.id, label.id));
  assert.equal([l!.numIssues, l!.numClosedIssues], [1, 0]);
  assert.is((await c.GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...path, index: one.number } } })).data!.comments, 1);
  assert.is(await run('check_repo_stats'), 'every counter was right');
});

test('repo_health_check: a repository with a missing object is named as failed; the others pass', async () => {
  const owner = await actor(app);
  const good = await userRepo(app, owner, { auto_init: true });
  const bad = await userRepo(app, owner, { auto_init: true });
  // Remove the loose objects of the broken one (its commit, tree and blobs).
  const objects = join(dirOf(owner.username, bad.name), 'objects');
  for (const d of readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d))) rmSync(join(objects, d), { recursive: true });
  const result = await run('repo_health_check');
  assert.match(result, new RegExp(`1 failed: ${owner.username}/${bad.name}: `));
  assert.not.match(result, new RegExp(`${good.name}`));
  // Out of the way of the other tasks.
  assert.is((await app.client(owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: bad.name } } })).response.status, 204);
  assert.match(await run('repo_health_check'), /none failed$/);
});

test('git_gc_repos: loose objects end up packed', async () => {
  const owner = await actor(app);
  const repo = await userRepo(app, owner, { auto_init: true });
  const dir = dirOf(owner.username, repo.name);
  const count = async () => Object.fromEntries((await git(dir, ['count-objects', '-v'])).stdout.trim().split('\n').map((l) => l.split(': ')));
  assert.ok(Number((await count()).count) > 0, 'loose objects before');
  assert.match(await run('git_gc_repos'), /none failed$/);
  const after = await count();
  assert.is(after.count, '0');
  assert.ok(Number(after['in-pack']) >= 3);
  assert.is((await app.client(owner.auth).GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { owner: owner.username, repo: repo.name, filepath: 'README.md' } } })).response.status, 200);
});

test('reinit_missing_repos: an empty repository where the folder was lost; delete_missing_repos: the repository goes', async () => {
  const owner = await actor(app);
  const c = app.client(owner.auth);
  const lost = await userRepo(app, owner, { auto_init: true });
  rmSync(dirOf(owner.username, lost.name), { recursive: true });
  assert.is(await run('reinit_missing_repos'), `re-initialized 1 repository: ${owner.username}/${lost.name}`);
  assert.ok(existsSync(join(dirOf(owner.username, lost.name), 'HEAD')));
  const shown = (await c.GET('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: lost.name } } })).data!;
  assert.is(shown.empty, true);
  assert.is(await run('reinit_missing_repos'), 'no repository is missing on disk');

  const gone = await userRepo(app, owner);
  rmSync(dirOf(owner.username, gone.name), { recursive: true });
  assert.is(await run('delete_missing_repos'), `deleted 1 repository: ${owner.username}/${gone.name}`);
  assert.is((await c.GET('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: gone.name } } })).response.status, 404);
  assert.is((await c.GET('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: lost.name } } })).response.status, 200, 'the others stay');
});

test('delete_inactive_accounts: never-activated accounts past the threshold go; young, active or owning ones stay', async () => {
  const make = async (over: { active: boolean; age: number; signedIn?: boolean }) => {
    const u = await app.user();
    await db().update(users).set({ isActive: over.active, createdAt: daysAgo(over.age), lastLoginAt: over.signedIn ? new Date() : null }).where(eq(users.id, u.id));
    return u;
  };
  const old = await make({ active: false, age: 4 });
  const young = await make({ active: false, age: 1 });
  const active = await make({ active: true, age: 30 });
  const signedIn = await make({ active: false, age: 30, signedIn: true });
  const owning = await app.user();
  await userRepo(app, { ...owning, auth: await app.token(owning) } as Actor);
  await db().update(users).set({ isActive: false, createdAt: daysAgo(10) }).where(eq(users.id, owning.id));
  const result = await run('delete_inactive_accounts');
  assert.is(result, `deleted 1 inactive account, kept 1 that own something: ${owning.username}`);
  const left = (await db().select({ id: users.id }).from(users).where(inArray(users.id, [old.id, young.id, active.id, signedIn.id, owning.id]))).map((r) => r.id);
  assert.equal(left.sort(), [young.id, active.id, signedIn.id, owning.id].sort());
  assert.is((await app.client(await app.token(app.admin)).GET('/users/{username}', { params: { path: { username: old.username } } })).response.status, 404);
});

test('delete_old_actions: feed rows older than a year go, and the feed\'s total follows', async () => {
  const owner = await actor(app);
  const repo = await userRepo(app, owner);
  const c = app.client(owner.auth);
  const path = { owner: owner.username, repo: repo.name };
  await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'recent' } });
  const feed = () => c.GET('/repos/{owner}/{repo}/activities/feeds', { params: { path } });
  const before = await feed();
  assert.is(before.data!.length, 2, 'repository created, issue opened');
  assert.is(before.response.headers.get('x-total-count'), '2');
  const oldest = before.data!.at(-1)!;
  await db().update(activities).set({ createdAt: daysAgo(400) }).where(eq(activities.id, oldest.id));
  assert.match(await run('delete_old_actions'), /^deleted 1 feed row older than /);
  const after = await feed();
  assert.equal(after.data!.map((a) => a.id), [before.data![0]!.id]);
  assert.is(after.response.headers.get('x-total-count'), '1');
  assert.match(await run('delete_old_actions'), /^deleted 0 feed rows /);
});

test('archive_cleanup: abandoned uploads and orphaned attachment files go; young and referenced ones stay', async () => {
  const tmp = join(app.config.dataDir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const file = (path: string, ageMs: number) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'x');
    const t = new Date(Date.now() - ageMs);
    utimesSync(path, t, t);
    return path;
  };
  const abandoned = file(join(tmp, randomUUID()), 2 * 86_400_000);
  const uploading = file(join(tmp, randomUUID()), 60_000);
  const notOurs = file(join(tmp, 'journal.json'), 5 * 86_400_000);
  const attachmentPath = (uuid: string) => join(app.config.dataDir, 'attachments', uuid[0]!, uuid[1]!, uuid);
  const orphan = file(attachmentPath(randomUUID()), 2 * 3_600_000);
  const young = file(attachmentPath(randomUUID()), 60_000);
  // A real attachment, old: its record refers to it.
  const owner = await actor(app);
  const repo = await userRepo(app, owner);
  const path = { owner: owner.username, repo: repo.name };
  const issue = (await app.client(owner.auth).POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'with a file' } })).data!;
  const form = new FormData();
  form.append('attachment', new Blob(['hello']), 'hello.txt');
  const up = await fetch(`${app.url}/api/v1/repos/${owner.username}/${repo.name}/issues/${issue.number}/assets`, { method: 'POST', headers: { Authorization: owner.auth }, body: form });
  assert.is(up.status, 201);
  const kept = file(attachmentPath(((await up.json()) as { uuid: string }).uuid), 3 * 86_400_000);
  assert.is(await run('archive_cleanup'), 'removed 1 abandoned upload and 1 orphaned attachment file');
  assert.equal([abandoned, uploading, notOurs, orphan, young, kept].map(existsSync), [false, true, true, false, true, true]);
});

test('cleanup_hook_task_table: finished deliveries past the retention go; pending and recent ones stay', async () => {
  const owner = await actor(app);
  const repo = await userRepo(app, owner);
  const path = { owner: owner.username, repo: repo.name };
  const hook = await app.client(owner.auth).POST('/repos/{owner}/{repo}/hooks', {
    params: { path }, body: { type: 'gitea', active: true, events: ['issues'], config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' } },
  });
  assert.is(hook.response.status, 201);
  for (const title of ['a', 'b', 'c']) await app.client(owner.auth).POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title } });
  const rows = await db().select().from(hookDeliveries).where(eq(hookDeliveries.hookId, hook.data!.id));
  assert.is(rows.length, 3);
  const [oldDone, oldPending, recentDone] = rows.map((r) => r.id);
  await db().update(hookDeliveries).set({ state: 'delivered', createdAt: daysAgo(8) }).where(eq(hookDeliveries.id, oldDone!));
  await db().update(hookDeliveries).set({ createdAt: daysAgo(8) }).where(eq(hookDeliveries.id, oldPending!));
  await db().update(hookDeliveries).set({ state: 'failed' }).where(eq(hookDeliveries.id, recentDone!));
  assert.is(await run('cleanup_hook_task_table'), 'deleted 1 finished webhook delivery');
  const left = (await db().select({ id: hookDeliveries.id }).from(hookDeliveries).where(eq(hookDeliveries.hookId, hook.data!.id))).map((r) => r.id);
  assert.equal(left.sort(), [oldPending!, recentDone!].sort());
});

test.run();
