import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import { CronService } from '../../src/services/admin/cron.js';
import { parseGoDuration, parseSchedule, ScheduleError } from '../../src/services/admin/cronSchedule.js';
import { cronTaskDefs } from '../../src/services/admin/cronTasks.js';
import type { ActionUpkeep } from '../../src/services/actions/upkeep.js';
import type { MaintenanceService } from '../../src/services/admin/maintenance.js';
import { payloads } from '../../src/present/payloads.js';

test('Go durations', () => {
  assert.is(parseGoDuration('10m'), 600_000);
  assert.is(parseGoDuration('72h'), 72 * 3_600_000);
  assert.is(parseGoDuration('1h30m'), 5_400_000);
  assert.is(parseGoDuration('1.5h'), 5_400_000);
  assert.is(parseGoDuration('500ms'), 500);
  for (const bad of ['', '10', 'm', '10x', '1h 30m', '-5m', '10m!']) assert.is(parseGoDuration(bad), undefined, bad);
});

test('@every counts from the Unix epoch: every process plans the same moments', () => {
  const s = parseSchedule('@every 10m');
  const after = new Date('2026-03-01T12:34:56.789Z');
  assert.equal(s.next(after), new Date('2026-03-01T12:40:00Z'));
  assert.equal(s.next(new Date('2026-03-01T12:40:00Z')), new Date('2026-03-01T12:50:00Z'), 'strictly after');
  const h72 = parseSchedule('@every 72h');
  const n = h72.next(after);
  assert.ok(n > after && n.getTime() - after.getTime() <= 72 * 3_600_000);
  assert.is(n.getTime() % (72 * 3_600_000), 0);
  // Below a second counts as a second, as robfig/cron does.
  assert.equal(parseSchedule('@every 10ms').next(new Date('2026-03-01T00:00:00.500Z')), new Date('2026-03-01T00:00:01Z'));
});

test('descriptors and cron expressions (five or six fields), in local time', () => {
  const after = new Date(2026, 2, 1, 12, 34, 56); // local time
  assert.equal(parseSchedule('@midnight').next(after), new Date(2026, 2, 2, 0, 0, 0));
  assert.equal(parseSchedule('@daily').next(after), new Date(2026, 2, 2, 0, 0, 0));
  assert.equal(parseSchedule('@hourly').next(after), new Date(2026, 2, 1, 13, 0, 0));
  assert.equal(parseSchedule('@annually').next(after), new Date(2027, 0, 1, 0, 0, 0));
  assert.equal(parseSchedule('@yearly').next(after), new Date(2027, 0, 1, 0, 0, 0));
  assert.equal(parseSchedule('@monthly').next(after), new Date(2026, 3, 1, 0, 0, 0));
  assert.equal(parseSchedule('30 4 * * *').next(after), new Date(2026, 2, 2, 4, 30, 0));
  assert.equal(parseSchedule('*/15 * * * * *').next(after), new Date(2026, 2, 1, 12, 35, 0));
  assert.equal(parseSchedule('*/15 * * * * *').next(new Date(2026, 2, 1, 12, 35, 0)), new Date(2026, 2, 1, 12, 35, 15), 'strictly after');
});

test('what is no schedule is a ScheduleError', () => {
  for (const bad of ['', '@every', '@every 0s', '@every 10', '@sometimes', 'every day', '61 * * * *', '* * *']) {
    assert.throws(() => parseSchedule(bad), (e: unknown) => e instanceof ScheduleError, bad);
  }
});

// The settings are checked when the services are made (at start): a typo stops the server with a message.
const serviceWith = (env: Record<string, string>) =>
  new CronService({ db: undefined as unknown as Db, config: loadConfig(env), log: pino({ level: 'silent' }), payloads }, cronTaskDefs({} as MaintenanceService, {} as ActionUpkeep));

test('Gitea\'s thirty tasks in registration order, with its defaults', () => {
  const tasks = serviceWith({}).tasks;
  assert.is(tasks.length, 30);
  assert.equal(tasks.slice(0, 4).map((t) => t.name), ['update_mirrors', 'repo_health_check', 'check_repo_stats', 'archive_cleanup']);
  assert.is(tasks.at(-1)!.name, 'cleanup_offline_runners');
  const gc = tasks.find((t) => t.name === 'git_gc_repos')!;
  assert.equal([gc.schedule, gc.enabled, gc.runAtStart], ['@every 72h', false, false]);
  const stats = tasks.find((t) => t.name === 'check_repo_stats')!;
  assert.equal([stats.schedule, stats.enabled, stats.runAtStart], ['@midnight', true, true]);
});

test('CRON_<TASK>_SCHEDULE, _ENABLED and _RUN_AT_START override; unknown tasks and bad values stop the start', () => {
  const s = serviceWith({ CRON_GIT_GC_REPOS_ENABLED: 'true', CRON_GIT_GC_REPOS_SCHEDULE: '@every 1h', CRON_CHECK_REPO_STATS_RUN_AT_START: 'false' });
  const gc = s.task('git_gc_repos');
  assert.equal([gc.schedule, gc.enabled], ['@every 1h', true]);
  assert.is(s.task('check_repo_stats').runAtStart, false);
  assert.throws(() => serviceWith({ CRON_GIT_GC_REPO_ENABLED: 'true' }), (e: unknown) => e instanceof ConfigError && /git_gc_repo\b/.test(e.message));
  assert.throws(() => serviceWith({ CRON_GIT_GC_REPOS_SCHEDULE: 'often' }), (e: unknown) => e instanceof ConfigError && /CRON_GIT_GC_REPOS_SCHEDULE/.test(e.message));
  assert.throws(() => serviceWith({ CRON_GIT_GC_REPOS_ENABLED: 'maybe' }), (e: unknown) => e instanceof ConfigError);
});

test.run();
