// The work behind the cron tasks: checks and repairs across every repository, account and file. Each
// method answers a one-line summary (the task's result) and logs what it found wrong.
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  activities, activityTallies, attachments, comments, issueLabels, issues, labels, milestones, orgMembers, repoWatches,
  repositories, stars, users, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { initBare } from '../../git/init.js';
import { fsck, gc, type UpkeepResult } from '../../git/maintenance.js';
import { repoDir, wikiDir } from '../../git/paths.js';
import { storeFor } from '../../storage/index.js';
import { isAttachmentUuid } from '../../storage/attachments.js';
import type { ServiceDeps } from '../context.js';
import type { HookService } from '../events/hooks.js';
import type { RepoService } from '../repos/repos.js';
import { discardAvatar } from '../users/avatars.js';
import { rowsOf } from '../../db/raw.js';

interface RepoRef {
  id: number;
  owner: string;
  name: string;
  objectFormat: 'sha1' | 'sha256';
  defaultBranch: string;
}

/** An attachment file younger than this may belong to an upload whose record is still being written. */
const attachmentGraceMs = 3600_000;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export class MaintenanceService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly repos: RepoService,
    private readonly hooks: HookService,
  ) {}

  /** Every repository, in id order, a batch at a time (a million repositories never sit in memory). */
  private async *allRepos(): AsyncGenerator<RepoRef> {
    let after = 0;
    for (;;) {
      const batch = await this.deps.db
        .select({ id: repositories.id, owner: users.name, name: repositories.name, objectFormat: repositories.objectFormat, defaultBranch: repositories.defaultBranch })
        .from(repositories)
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .where(gt(repositories.id, after))
        .orderBy(asc(repositories.id))
        .limit(200);
      yield* batch;
      if (batch.length < 200) return;
      after = batch[batch.length - 1]!.id;
    }
  }

  private async eachGitDir(task: string, fn: (dir: string, timeoutMs: number) => Promise<UpkeepResult>): Promise<string> {
    const { dataDir, cron } = this.deps.config;
    let checked = 0;
    let missing = 0;
    const failed: string[] = [];
    for await (const r of this.allRepos()) {
      for (const [dir, label] of [[repoDir(dataDir, r.owner, r.name), `${r.owner}/${r.name}`], [wikiDir(dataDir, r.owner, r.name), `${r.owner}/${r.name} (wiki)`]] as const) {
        if (!existsSync(dir)) {
          if (!label.endsWith('(wiki)')) missing++;
          continue;
        }
        checked++;
        const res = await fn(dir, cron.healthCheckTimeoutMs);
        if (!res.ok) {
          failed.push(`${label}: ${res.problem}`);
          this.deps.log.warn({ task, repo: label, problem: res.problem }, 'repository upkeep failed');
        }
      }
    }
    const parts = [`${plural(checked, 'git repository', 'git repositories')} checked`];
    if (missing) parts.push(`${missing} missing on disk`);
    parts.push(failed.length ? `${failed.length} failed: ${failed.slice(0, 10).join('; ')}${failed.length > 10 ? '; …' : ''}` : 'none failed');
    return parts.join(', ');
  }

  /** repo_health_check: `git fsck` of every repository and wiki, each bounded by CRON_REPO_HEALTH_CHECK_TIMEOUT. */
  healthCheck(): Promise<string> {
    return this.eachGitDir('repo_health_check', fsck);
  }

  /** git_gc_repos: `git gc` of every repository and wiki. */
  gcRepos(): Promise<string> {
    return this.eachGitDir('git_gc_repos', gc);
  }

  /**
   * check_repo_stats: every counter recounted from the rows it counts; the ones that had drifted are
   * mended and named. Each kind is one statement that touches only rows whose value is wrong.
   */
  async checkStats(): Promise<string> {
    const { db, log } = this.deps;
    const fixes: string[] = [];
    const note = (kind: string, rows: Array<{ id: number }>) => {
      if (rows.length === 0) return;
      fixes.push(`${kind} of ${plural(rows.length, 'row')}`);
      log.warn({ task: 'check_repo_stats', counter: kind, ids: rows.slice(0, 50).map((r) => r.id) }, 'counter had drifted; mended');
    };
    const repoCounts = sql`(select ${issues.repoId} as repo_id,
        count(*) filter (where not ${issues.isPull}) as n_issues,
        count(*) filter (where not ${issues.isPull} and ${issues.isClosed}) as n_closed_issues,
        count(*) filter (where ${issues.isPull}) as n_pulls,
        count(*) filter (where ${issues.isPull} and ${issues.isClosed}) as n_closed_pulls
      from ${issues} group by ${issues.repoId})`;
    note('repository issue and pull counts', await db.execute<{ id: number }>(sql`
      update ${repositories} r set num_issues = coalesce(c.n_issues, 0), num_closed_issues = coalesce(c.n_closed_issues, 0),
        num_pulls = coalesce(c.n_pulls, 0), num_closed_pulls = coalesce(c.n_closed_pulls, 0)
      from ${repositories} r2 left join ${repoCounts} c on c.repo_id = r2.id
      where r2.id = r.id and (r.num_issues, r.num_closed_issues, r.num_pulls, r.num_closed_pulls)
        is distinct from (coalesce(c.n_issues, 0), coalesce(c.n_closed_issues, 0), coalesce(c.n_pulls, 0), coalesce(c.n_closed_pulls, 0))
      returning r.id`).then((r) => rowsOf<{ id: number }>(r)));
    note('repository watcher counts', await db.execute<{ id: number }>(sql`
      update ${repositories} r set num_watches = w.n
      from (select r2.id, (select count(*) from ${repoWatches} w where w.repo_id = r2.id) as n from ${repositories} r2) w
      where w.id = r.id and r.num_watches <> w.n returning r.id`).then((r) => rowsOf<{ id: number }>(r)));
    note('repository star counts', await db.execute<{ id: number }>(sql`
      update ${repositories} r set num_stars = s.n
      from (select r2.id, (select count(*) from ${stars} s where s.repo_id = r2.id) as n from ${repositories} r2) s
      where s.id = r.id and r.num_stars <> s.n returning r.id`).then((r) => rowsOf<{ id: number }>(r)));
    note('milestone issue counts', await db.execute<{ id: number }>(sql`
      update ${milestones} m set num_issues = c.n, num_closed_issues = c.closed
      from (select m2.id, count(i.id) as n, count(i.id) filter (where i.is_closed) as closed
            from ${milestones} m2 left join ${issues} i on i.milestone_id = m2.id group by m2.id) c
      where c.id = m.id and (m.num_issues, m.num_closed_issues) is distinct from (c.n::int, c.closed::int) returning m.id`).then((r) => rowsOf<{ id: number }>(r)));
    note('label issue counts', await db.execute<{ id: number }>(sql`
      update ${labels} l set num_issues = c.n, num_closed_issues = c.closed
      from (select l2.id, count(il.issue_id) as n, count(il.issue_id) filter (where i.is_closed) as closed
            from ${labels} l2 left join ${issueLabels} il on il.label_id = l2.id left join ${issues} i on i.id = il.issue_id group by l2.id) c
      where c.id = l.id and (l.num_issues, l.num_closed_issues) is distinct from (c.n::int, c.closed::int) returning l.id`).then((r) => rowsOf<{ id: number }>(r)));
    note('issue comment counts', await db.execute<{ id: number }>(sql`
      update ${issues} i set num_comments = c.n
      from (select i2.id, (select count(*) from ${comments} c where c.issue_id = i2.id and c.type = 'comment') as n from ${issues} i2) c
      where c.id = i.id and i.num_comments <> c.n returning i.id`).then((r) => rowsOf<{ id: number }>(r)));
    return fixes.length ? `mended ${fixes.join(', ')}` : 'every counter was right';
  }

  /** Repositories whose row exists but whose git folder is gone. */
  private async missingRepos(): Promise<RepoRef[]> {
    const gone: RepoRef[] = [];
    for await (const r of this.allRepos()) if (!existsSync(repoDir(this.deps.config.dataDir, r.owner, r.name))) gone.push(r);
    return gone;
  }

  /** reinit_missing_repos: an empty bare repository where one is missing (its git content is lost; the records stay). */
  async reinitMissing(): Promise<string> {
    const gone = await this.missingRepos();
    for (const r of gone) {
      await initBare(repoDir(this.deps.config.dataDir, r.owner, r.name), { objectFormat: r.objectFormat, defaultBranch: r.defaultBranch });
      await this.deps.db.update(repositories).set({ isEmpty: true, numBranches: 0, sizeBytes: 0 }).where(eq(repositories.id, r.id));
      this.deps.log.warn({ task: 'reinit_missing_repos', repo: `${r.owner}/${r.name}` }, 'git folder was missing; initialized an empty one');
    }
    return gone.length ? `re-initialized ${plural(gone.length, 'repository', 'repositories')}: ${gone.map((r) => `${r.owner}/${r.name}`).join(', ')}` : 'no repository is missing on disk';
  }

  /** delete_missing_repos: a repository whose git folder is gone is deleted, as its owner would (events, hooks). */
  async deleteMissing(doer: UserRow): Promise<string> {
    const gone = await this.missingRepos();
    const deleted: string[] = [];
    for (const r of gone) {
      const loaded = await this.repos.load(r.owner, r.name, doer).catch(() => undefined);
      if (!loaded || loaded.repo.id !== r.id) continue; // renamed or gone meanwhile
      await this.repos.delete(loaded, doer);
      deleted.push(`${r.owner}/${r.name}`);
      this.deps.log.warn({ task: 'delete_missing_repos', repo: `${r.owner}/${r.name}` }, 'git folder was missing; deleted the repository');
    }
    return deleted.length ? `deleted ${plural(deleted.length, 'repository', 'repositories')}: ${deleted.join(', ')}` : 'no repository is missing on disk';
  }

  /**
   * delete_inactive_accounts: accounts never activated (inactive, never signed in) created before the
   * threshold. One that has anything of its own (a repository, an organization) is kept and named.
   */
  async deleteInactiveAccounts(now = new Date()): Promise<string> {
    const cutoff = new Date(now.getTime() - this.deps.config.cron.inactiveAccountsOlderThanMs);
    const candidates = await this.deps.db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(and(eq(users.type, 'User'), eq(users.isActive, false), isNull(users.lastLoginAt), lt(users.createdAt, cutoff)))
      .orderBy(asc(users.id));
    const kept: string[] = [];
    let deleted = 0;
    for (const u of candidates) {
      try {
        const gone = await withTx(this.deps.db, async (tx) => {
          const [owns] = await tx.select({ id: repositories.id }).from(repositories).where(eq(repositories.ownerId, u.id)).limit(1);
          const [member] = await tx.select({ id: orgMembers.orgId }).from(orgMembers).where(eq(orgMembers.userId, u.id)).limit(1);
          if (owns || member) return false;
          return (await tx.delete(users).where(and(eq(users.id, u.id), eq(users.isActive, false))).returning({ id: users.id })).length > 0;
        });
        if (gone) {
          deleted++;
          await discardAvatar(this.deps, u.id);
        } else kept.push(u.name);
      } catch (err) {
        // Something of theirs refers to them (a foreign key): they stay.
        kept.push(u.name);
        this.deps.log.warn({ task: 'delete_inactive_accounts', user: u.name, err: (err as Error).message }, 'inactive account kept');
      }
    }
    return `deleted ${plural(deleted, 'inactive account')}${kept.length ? `, kept ${kept.length} that own something: ${kept.join(', ')}` : ''}`;
  }

  /** delete_old_actions: feed rows older than the threshold, with their feeds' tallies lowered in the same transaction. */
  async deleteOldActions(now = new Date()): Promise<string> {
    const cutoff = new Date(now.getTime() - this.deps.config.cron.oldActionsOlderThanMs);
    let total = 0;
    for (;;) {
      // In batches, so a table of millions is never locked in one long transaction.
      const n = await withTx(this.deps.db, async (tx) => {
        const rows = await tx.execute<{ n: string }>(sql`
          with gone as (
            delete from ${activities} where id in (select id from ${activities} where created_at < ${cutoff.toISOString()}::timestamptz order by id limit 5000)
            returning owner_id, act_user_id, repo_id),
          counted as (
            select coalesce(owner_id, 0) as owner_id, act_user_id, repo_id, count(*) as n from gone where repo_id is not null group by 1, 2, 3),
          lowered as (
            update ${activityTallies} t set n = t.n - c.n from counted c
            where t.owner_id = c.owner_id and t.act_user_id = c.act_user_id and t.repo_id = c.repo_id returning 1)
          select (select count(*) from gone)::text as n, (select count(*) from lowered) as lowered`);
        await tx.delete(activityTallies).where(sql`${activityTallies.n} <= 0`);
        return Number(rowsOf<{ n: string }>(rows)[0]?.n ?? 0);
      });
      total += n;
      if (n < 5000) break;
    }
    return `deleted ${plural(total, 'feed row')} older than ${cutoff.toISOString()}`;
  }

  /**
   * archive_cleanup: files nothing refers to any more: uploads abandoned in `$DATA_DIR/tmp` (a request that
   * died) older than CRON_ARCHIVE_CLEANUP_OLDER_THAN, and attachment files whose record is gone (their
   * issue, comment or repository was deleted) older than an hour.
   */
  async cleanupFiles(now = new Date()): Promise<string> {
    const { dataDir, cron } = this.deps.config;
    let tmp = 0;
    const tmpDir = join(dataDir, 'tmp');
    for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
      if (!isAttachmentUuid(name)) continue; // journals of repository moves are start-up's business
      const path = join(tmpDir, name);
      const st = await stat(path).catch(() => undefined);
      if (st?.isFile() && now.getTime() - st.mtimeMs > cron.tmpFilesOlderThanMs) {
        await rm(path, { force: true });
        tmp++;
      }
    }
    let orphans = 0;
    // Attachment files, wherever they are stored (a folder or a bucket): keys `<a>/<b>/<uuid>`.
    const store = storeFor(this.deps.config, 'attachments');
    const sweep = async (batch: { key: string; uuid: string; modified: Date }[]) => {
      const known = new Set((await this.deps.db.select({ uuid: attachments.uuid }).from(attachments).where(inArray(attachments.uuid, batch.map((b) => b.uuid)))).map((r) => r.uuid));
      for (const b of batch) {
        if (known.has(b.uuid) || now.getTime() - b.modified.getTime() <= attachmentGraceMs) continue;
        await store.remove(b.key);
        orphans++;
      }
    };
    let batch: { key: string; uuid: string; modified: Date }[] = [];
    for await (const { key, modified } of store.list()) {
      const uuid = key.split('/').pop()!;
      if (!isAttachmentUuid(uuid)) continue;
      batch.push({ key, uuid, modified });
      if (batch.length >= 500) {
        await sweep(batch);
        batch = [];
      }
    }
    if (batch.length) await sweep(batch);
    return `removed ${plural(tmp, 'abandoned upload')} and ${plural(orphans, 'orphaned attachment file')}`;
  }

  /** cleanup_hook_task_table: finished webhook deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS. */
  async cleanupHookDeliveries(now = new Date()): Promise<string> {
    return `deleted ${plural(await this.hooks.cleanupDeliveries(now), 'finished webhook delivery', 'finished webhook deliveries')}`;
  }
}
