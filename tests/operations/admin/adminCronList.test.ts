// adminCronList: every task in registration order, paginated, for every role.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  // One task switched on and rescheduled, one switched off: the list shows the effective settings.
  app = await startApp({ CRON_GIT_GC_REPOS_ENABLED: 'true', CRON_GIT_GC_REPOS_SCHEDULE: '@every 1h', CRON_UPDATE_CHECKER_ENABLED: 'false' });
  asAdmin = await app.token(app.admin, ['read:admin']);
});
test.after(async () => {
  await app.close();
});

const list = (query: { page?: number; limit?: number } = {}, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).GET('/admin/cron', { params: { query } });

test('200: the thirty tasks in registration order, enabled with schedule and next run, disabled with "-" and zero times', async () => {
  const before = Date.now();
  const res = await list();
  assert.is(res.response.status, 200);
  assertSpec('adminCronList', res);
  const tasks = res.data!;
  assert.is(res.response.headers.get('x-total-count'), '30');
  assert.is(tasks.length, 30, 'the default page (30) holds them all');
  assert.equal(tasks.slice(0, 3).map((t) => t.name), ['update_mirrors', 'repo_health_check', 'check_repo_stats']);
  assert.equal(tasks.slice(-2).map((t) => t.name), ['cleanup_actions', 'cleanup_offline_runners']);
  const byName = new Map(tasks.map((t) => [t.name, t]));
  const mirrors = byName.get('update_mirrors')!;
  assert.is(mirrors.schedule, '@every 10m');
  assert.ok(Date.parse(mirrors.next) > before && Date.parse(mirrors.next) <= Date.now() + 600_000, mirrors.next);
  assert.is(Date.parse(mirrors.next) % 600_000, 0, '@every moments are whole multiples from the epoch');
  assert.equal({ ...byName.get('repo_health_check')!, next: '' }, { name: 'repo_health_check', schedule: '@midnight', next: '', prev: '0001-01-01T00:00:00Z', exec_times: 0 });
  // Disabled by default, and disabled by configuration.
  for (const name of ['delete_inactive_accounts', 'cleanup_offline_runners', 'update_checker']) {
    assert.equal(byName.get(name), { name, schedule: '-', next: '0001-01-01T00:00:00Z', prev: '0001-01-01T00:00:00Z', exec_times: 0 }, name);
  }
  // Enabled by configuration, with its own schedule.
  assert.is(byName.get('git_gc_repos')!.schedule, '@every 1h');
  assert.ok(Date.parse(byName.get('git_gc_repos')!.next) > before);
});

test('200: runs show in exec_times and prev', async () => {
  const started = Math.floor(Date.now() / 1000) * 1000;
  assert.is((await app.client(await app.token(app.admin, ['write:admin'])).POST('/admin/cron/{task}', { params: { path: { task: 'check_repo_stats' } } })).response.status, 204);
  const stats = (await list()).data!.find((t) => t.name === 'check_repo_stats')!;
  assert.is(stats.exec_times, 1);
  assert.ok(Date.parse(stats.prev) >= started, stats.prev);
});

test('200: pages of the list; X-Total-Count is every task, Link leads through them', async () => {
  const p2 = await list({ page: 2, limit: 7 });
  assert.is(p2.response.status, 200);
  assertSpec('adminCronList', p2);
  assert.is(p2.data!.length, 7);
  assert.is(p2.data![0]!.name, (await list()).data![7]!.name);
  assert.is(p2.response.headers.get('x-total-count'), '30');
  assert.match(p2.response.headers.get('link') ?? '', /page=3&limit=7>; rel="next"/);
  const last = await list({ page: 5, limit: 7 });
  assert.equal(last.data!.map((t) => t.name), ['cleanup_actions', 'cleanup_offline_runners']);
  assert.equal((await list({ page: 9, limit: 7 })).data, []);
  // Gitea's clamp: above 50 is 50.
  assert.is((await list({ limit: 100 })).data!.length, 30);
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  const anon = await list({}, null);
  assert.is(anon.response.status, 401);
  assertSpec('adminCronList', anon);
  const user = await app.user();
  const plain = await list({}, await app.token(user, ['all']));
  assert.is(plain.response.status, 403);
  assertSpec('adminCronList', plain);
  assert.is((plain.error as { message: string }).message, 'user should be the site admin');
  const scoped = await list({}, await app.token(app.admin, ['read:user']));
  assert.is(scoped.response.status, 403);
  assert.match((scoped.error as { message: string }).message, /read:admin/);
  assert.is((await list({}, await app.token(app.admin, ['write:admin']))).response.status, 200, 'write includes read');
});

test('422: page and limit must be integers', async () => {
  for (const q of ['page=x', 'limit=1.5', 'page=1e2']) {
    const res = await fetch(`${app.url}/api/v1/admin/cron?${q}`, { headers: { Authorization: asAdmin } });
    assert.is(res.status, 422, q);
  }
});

test.run();
