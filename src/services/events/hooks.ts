// Webhooks of a repository, an organisation or the site: create, list, read, edit, delete; their
// deliveries and attempts; redelivery; the test delivery; and the retention of old deliveries.
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNull, lt, ne, type SQL } from 'drizzle-orm';
import { hookAttempts, hookDeliveries, hooks, type HookAttemptRow, type HookDeliveryRow, type HookRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { readCommit } from '../../git/objects.js';
import { repoDir } from '../../git/paths.js';
import { refTarget } from '../../git/refs.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { deliveryQueued } from './hookFanOut.js';
import { hookFromCreate, hookFromEdit, type HookFields, type HookOption } from './hookOptions.js';

/**
 * Whose hooks: a repository's, an account's (`org`: an organization's or, for `/user/hooks`, a user's; both
 * fire for every repository the account owns) or the site's.
 */
export type HookScope = { kind: 'repo'; repoId: number } | { kind: 'org'; orgId: number } | { kind: 'admin' };

/** Which site hooks an admin list shows. */
export type SiteHookKind = 'system' | 'default' | 'all';

function scopeWhere(scope: HookScope): SQL {
  if (scope.kind === 'repo') return eq(hooks.repoId, scope.repoId);
  if (scope.kind === 'org') return and(isNull(hooks.repoId), eq(hooks.ownerId, scope.orgId))!;
  return and(isNull(hooks.repoId), isNull(hooks.ownerId))!;
}

const fieldsOf = (h: HookRow): HookFields => ({
  name: h.name, type: h.type as HookFields['type'], url: h.url, contentType: h.contentType as HookFields['contentType'], secret: h.secret,
  config: h.config, events: h.events as HookFields['events'], branchFilter: h.branchFilter, authorizationHeader: h.authorizationHeader, active: h.active,
});

const columnsOf = (f: HookFields) => ({
  name: f.name, type: f.type, url: f.url, contentType: f.contentType, secret: f.secret, config: f.config, events: f.events,
  branchFilter: f.branchFilter, authorizationHeader: f.authorizationHeader, active: f.active,
});

/** Repository hooks are for repository admins (Gitea's reqRepoAdmin). */
export function requireRepoHookAdmin(loaded: LoadedRepo): void {
  if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
}

export class HookService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(scope: HookScope, option: HookOption): Promise<HookRow> {
    const f = hookFromCreate(option);
    const [row] = await this.deps.db
      .insert(hooks)
      .values({
        ...columnsOf(f),
        repoId: scope.kind === 'repo' ? scope.repoId : null,
        ownerId: scope.kind === 'org' ? scope.orgId : null,
        isSystem: scope.kind === 'admin' ? f.isSystem === true : false,
      })
      .returning();
    return row!;
  }

  async list(scope: HookScope, page: { limit: number; offset: number }, kind: SiteHookKind = 'all'): Promise<{ rows: HookRow[]; total: number }> {
    const conds: Array<SQL | undefined> = [scopeWhere(scope)];
    if (scope.kind === 'admin' && kind !== 'all') conds.push(eq(hooks.isSystem, kind === 'system'));
    const where = and(...conds);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(hooks).where(where).orderBy(asc(hooks.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(hooks).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async get(scope: HookScope, id: number): Promise<HookRow> {
    const [row] = await this.deps.db.select().from(hooks).where(and(eq(hooks.id, id), scopeWhere(scope)));
    if (!row) throw new NotFound();
    return row;
  }

  async edit(scope: HookScope, id: number, option: HookOption): Promise<HookRow> {
    const current = await this.get(scope, id);
    const next = hookFromEdit(fieldsOf(current), option);
    const [row] = await this.deps.db.update(hooks).set({ ...columnsOf(next), updatedAt: new Date() }).where(eq(hooks.id, id)).returning();
    if (!row) throw new NotFound();
    return row;
  }

  async delete(scope: HookScope, id: number): Promise<void> {
    const gone = await this.deps.db.delete(hooks).where(and(eq(hooks.id, id), scopeWhere(scope))).returning({ id: hooks.id });
    if (gone.length === 0) throw new NotFound();
  }

  async deliveries(scope: HookScope, hookId: number, page: { limit: number; offset: number }): Promise<{ rows: HookDeliveryRow[]; total: number }> {
    await this.get(scope, hookId);
    const where = eq(hookDeliveries.hookId, hookId);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(hookDeliveries).where(where).orderBy(desc(hookDeliveries.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(hookDeliveries).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async delivery(scope: HookScope, hookId: number, deliveryId: number): Promise<{ delivery: HookDeliveryRow; attempts: HookAttemptRow[] }> {
    await this.get(scope, hookId);
    const [delivery] = await this.deps.db.select().from(hookDeliveries).where(and(eq(hookDeliveries.id, deliveryId), eq(hookDeliveries.hookId, hookId)));
    if (!delivery) throw new NotFound();
    const attempts = await this.deps.db.select().from(hookAttempts).where(eq(hookAttempts.deliveryId, deliveryId)).orderBy(asc(hookAttempts.id));
    return { delivery, attempts };
  }

  /** Sends a delivery's payload again, now, as a new delivery (a new X-Gitea-Delivery), whatever became of the first. */
  async redeliver(scope: HookScope, hookId: number, deliveryId: number): Promise<HookDeliveryRow> {
    const { delivery } = await this.delivery(scope, hookId, deliveryId);
    const [row] = await this.deps.db
      .insert(hookDeliveries)
      .values({ hookId, eventId: delivery.eventId, guid: randomUUID(), event: delivery.event, eventType: delivery.eventType, payload: delivery.payload })
      .returning();
    deliveryQueued.emit('queued');
    return row!;
  }

  /** Gitea's test delivery: a push of the default branch's tip to this hook, active or not. */
  async test(loaded: LoadedRepo, actor: UserRow, hookId: number): Promise<HookDeliveryRow> {
    const hook = await this.get({ kind: 'repo', repoId: loaded.repo.id }, hookId);
    const dir = repoDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
    const tipId = loaded.repo.isEmpty ? undefined : await refTarget(dir, `refs/heads/${loaded.repo.defaultBranch}`);
    const commit = tipId ? await readCommit(dir, tipId) : undefined;
    const tip = commit ? { id: tipId!, message: commit.message, date: new Date(commit.committer.date) } : undefined;
    const built = this.deps.payloads.testPush(loaded.repo, loaded.owner, actor, tip, this.deps.config);
    const [row] = await withTx(this.deps.db, (tx) =>
      tx.insert(hookDeliveries).values({ hookId: hook.id, eventId: 0, guid: randomUUID(), event: 'push', eventType: 'push', payload: this.deps.payloads.encode(hook, built) }).returning(),
    );
    deliveryQueued.emit('queued');
    return row!;
  }

  /** Deletes finished deliveries (and their attempts) older than the retention; answers how many went. The cron task cleanup_hook_task_table calls it. */
  async cleanupDeliveries(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.deps.config.webhook.retentionDays * 86_400_000);
    const old = await this.deps.db
      .select({ id: hookDeliveries.id })
      .from(hookDeliveries)
      .where(and(lt(hookDeliveries.createdAt, cutoff), ne(hookDeliveries.state, 'pending')));
    if (old.length === 0) return 0;
    await this.deps.db.delete(hookDeliveries).where(inArray(hookDeliveries.id, old.map((o) => o.id)));
    return old.length;
  }
}
