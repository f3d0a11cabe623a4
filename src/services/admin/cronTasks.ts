// Gitea's cron tasks, in its registration order (basic, extended, then the Actions tasks), with its
// default schedules, switches and start-up runs. Each answers a one-line result. A task whose subject
// anvil does not have keeps its name (clients list and run it) and says what it found to do.
import type { UserRow } from '../../db/schema/index.js';
import type { ActionUpkeep } from '../actions/upkeep.js';
import type { MaintenanceService } from './maintenance.js';

export interface TaskContext {
  /** Who asked for the run (an administrator through the API), or the first site administrator for scheduled runs. */
  doer: () => Promise<UserRow>;
}

export interface CronTaskDef {
  name: string;
  schedule: string;
  enabled: boolean;
  runAtStart: boolean;
  run(ctx: TaskContext): Promise<string>;
}

const nothing = (why: string) => async () => why;

/** What gc_lfs needs of the LFS service. */
export interface LfsGarbage {
  collectGarbage(): Promise<number>;
}

/** What update_mirrors needs of the mirror service. */
export interface MirrorUpdates {
  syncDue(): Promise<string>;
}

/** What cleanup_packages needs of the package service. */
export interface PackageCleanup {
  cleanup(): Promise<{ versions: number; blobs: number }>;
  /** Container uploads started and never finished, older than a day. */
  removeAbandonedUploads(): Promise<number>;
}

export function cronTaskDefs(m: MaintenanceService, actions: ActionUpkeep, lfs?: LfsGarbage, mirrors?: MirrorUpdates, packages?: PackageCleanup): CronTaskDef[] {
  const t = (name: string, schedule: string, enabled: boolean, runAtStart: boolean, run: CronTaskDef['run']): CronTaskDef =>
    ({ name, schedule, enabled, runAtStart, run });
  return [
    // basic
    t('update_mirrors', '@every 10m', true, false, mirrors ? () => mirrors.syncDue() : nothing('no mirrors')),
    t('repo_health_check', '@midnight', true, false, () => m.healthCheck()),
    t('check_repo_stats', '@midnight', true, true, () => m.checkStats()),
    t('archive_cleanup', '@midnight', true, true, () => m.cleanupFiles()),
    t('sync_external_users', '@midnight', true, false, nothing('no external authentication sources')),
    t('deleted_branches_cleanup', '@midnight', true, true, nothing('no deleted-branch records: anvil deletes a branch at once')),
    t('update_migration_poster_id', '@midnight', true, true, nothing('no migrated repositories')),
    t('cleanup_hook_task_table', '@midnight', true, false, () => m.cleanupHookDeliveries()),
    t('cleanup_packages', '@midnight', true, true, packages
      ? async () => {
        const uploads = await packages.removeAbandonedUploads();
        const r = await packages.cleanup();
        return `removed ${r.versions} package version${r.versions === 1 ? '' : 's'} by cleanup rules, ${r.blobs} unreferenced blob${r.blobs === 1 ? '' : 's'} and ${uploads} abandoned container upload${uploads === 1 ? '' : 's'}`;
      }
      : nothing('no packages')),
    // extended
    t('sync_repo_licenses', '@annually', false, false, nothing('no license detection: a repository records the license it was created with')),
    t('delete_inactive_accounts', '@annually', false, false, () => m.deleteInactiveAccounts()),
    t('delete_repo_archives', '@annually', false, false, nothing('no repository archives are kept')),
    t('git_gc_repos', '@every 72h', false, false, () => m.gcRepos()),
    t('resync_all_sshkeys', '@every 72h', false, false, nothing('no authorized_keys file: anvil has no SSH keys yet')),
    t('resync_all_sshprincipals', '@every 72h', false, false, nothing('no authorized_principals file: anvil has no SSH principals')),
    t('resync_all_hooks', '@every 72h', false, false, nothing('no git hooks: anvil installs none in repositories')),
    t('reinit_missing_repos', '@every 72h', false, false, () => m.reinitMissing()),
    t('delete_missing_repos', '@every 72h', false, false, async (ctx) => m.deleteMissing(await ctx.doer())),
    t('delete_generated_repository_avatars', '@every 72h', false, false, nothing('no generated avatars are stored')),
    t('delete_old_actions', '@every 168h', false, false, () => m.deleteOldActions()),
    t('update_checker', '@every 168h', true, false, nothing('anvil never calls out to check for a new version')),
    t('delete_old_system_notices', '@every 168h', false, false, nothing('no system notices are kept')),
    t('gc_lfs', '@every 24h', false, false, lfs
      ? async () => { const n = await lfs.collectGarbage(); return `removed ${n} unreferenced LFS object${n === 1 ? '' : 's'}`; }
      : nothing('no LFS objects')),
    t('rebuild_issue_indexer', '@annually', false, false, nothing('no issue indexer: issue search reads the database')),
    // Actions
    t('stop_zombie_tasks', '@every 5m', true, true, () => actions.stopZombieTasks()),
    t('stop_endless_tasks', '@every 30m', true, true, () => actions.stopEndlessTasks()),
    t('cancel_abandoned_jobs', '@every 6h', true, true, () => actions.cancelAbandonedJobs()),
    t('start_schedule_tasks', '@every 1m', true, false, () => actions.startScheduled()),
    t('cleanup_actions', '@midnight', true, false, () => actions.cleanup()),
    t('cleanup_offline_runners', '@midnight', false, false, () => actions.cleanupOfflineRunners()),
  ];
}
