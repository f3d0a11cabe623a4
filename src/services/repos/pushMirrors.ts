// Push mirrors (#39): remotes a repository's branches and tags are pushed to (forced, pruning), on request
// (`push_mirrors-sync`), after every push when `sync_on_commit` is on, and on their interval (the
// `update_mirrors` cron task). A push marks its repository's sync-on-commit mirrors wanted in its own
// transaction (the fan-out below), so an acknowledged push is never missed; a sync claims one mirror with
// a lease (one process at a time, taken over once MIRROR_LEASE_SECONDS pass), pushes, and clears the mark
// only if no push set it again meanwhile: pushes that arrive during a sync get one more sync. The remote's
// address is judged on every sync as a migration's (services/repos/remoteAccess.ts).
import { EventEmitter } from 'node:events';
import { randomInt } from 'node:crypto';
import { and, asc, count, eq, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '../../db/raw.js';
import { pushMirrors, repositories, users, type PushMirrorRow } from '../../db/schema/index.js';
import { repoDir } from '../../git/paths.js';
import { pushMirror, remoteFailure } from '../../git/remote.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import { open, seal, type SecretKey } from '../actions/secretBox.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, DomainError, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { addFanOut } from '../events/record.js';
import type { RecordedEvent } from '../events/types.js';
import type { LoadedRepo } from './loadedRepo.js';
import { mirrorIntervalSeconds } from './mirrorSettings.js';
import { checkRemote, gitAccess, type RemoteCredentials } from './remoteAccess.js';

/** Emitted when this process marked a push mirror wanted (wakes its worker; the poll covers the others). */
export const pushMirrorQueued = new EventEmitter();

/** The place a push mirror's sealed credentials are bound to. */
const secretPlace = (m: { repoId: number; remoteName: string }) => ({ ownerId: 0, repoId: m.repoId, name: `push-mirror:${m.remoteName}` });

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const remoteName = () => `remote_mirror_${Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('')}`;

export interface PushMirrorInput {
  remoteAddress: string;
  remoteUsername?: string;
  remotePassword?: string;
  interval?: string;
  syncOnCommit?: boolean;
}

const pushedRepo = (e: RecordedEvent) => (e.type === 'push' && e.repoId !== undefined ? e.repoId : undefined);

addFanOut(async (tx, e) => {
  const repoId = pushedRepo(e);
  if (repoId === undefined) return;
  const marked = await tx.update(pushMirrors).set({ wantedAt: sql`clock_timestamp()` })
    .where(and(eq(pushMirrors.repoId, repoId), eq(pushMirrors.syncOnCommit, true))).returning({ id: pushMirrors.id });
  if (marked.length) pushMirrorQueued.emit('queued');
}, {
  // Quiet unless a pushed repository has a push mirror that syncs on commit (asked of the recording statement).
  quiet: (list) => {
    const ids = [...new Set(list.map((e) => pushedRepo(e as RecordedEvent)).filter((id): id is number => id !== undefined))];
    if (!ids.length) return true;
    return sql`not exists (select 1 from ${pushMirrors} p where p.sync_on_commit and p.repo_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}))`;
  },
});

export class PushMirrorService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly keys: () => Promise<SecretKey[]>,
  ) {}

  private admin(loaded: LoadedRepo): void {
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
  }

  private writable(loaded: LoadedRepo): void {
    this.admin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
  }

  async list(loaded: LoadedRepo, page: { limit: number; offset: number }): Promise<{ rows: PushMirrorRow[]; total: number }> {
    this.admin(loaded);
    const { db } = this.deps;
    const where = eq(pushMirrors.repoId, loaded.repo.id);
    const [rows, [n]] = await Promise.all([
      db.select().from(pushMirrors).where(where).orderBy(asc(pushMirrors.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(pushMirrors).where(where),
    ]);
    return { rows, total: Number(n?.n ?? 0) };
  }

  async byName(loaded: LoadedRepo, name: string): Promise<PushMirrorRow> {
    this.admin(loaded);
    const [row] = await this.deps.db.select().from(pushMirrors).where(and(eq(pushMirrors.repoId, loaded.repo.id), eq(pushMirrors.remoteName, name)));
    if (!row) throw new NotFound(`push mirror "${name}" does not exist`);
    return row;
  }

  async add(loaded: LoadedRepo, input: PushMirrorInput): Promise<PushMirrorRow> {
    this.writable(loaded);
    const { db, config } = this.deps;
    let interval: number;
    try {
      interval = mirrorIntervalSeconds(input.interval, this.deps, 'interval');
    } catch (err) {
      if (err instanceof Invalid) throw new BadRequest(err.message);
      throw err;
    }
    const given: RemoteCredentials = { username: input.remoteUsername || undefined, password: input.remotePassword || undefined };
    let remote;
    try {
      remote = await checkRemote(config.migrations, input.remoteAddress, given);
    } catch (err) {
      if (err instanceof DomainError) throw new BadRequest(err.message);
      throw err;
    }
    const name = remoteName();
    const creds = remote.credentials.username || remote.credentials.password ? JSON.stringify(remote.credentials) : undefined;
    const [key] = creds ? await this.keys() : [];
    const now = new Date();
    const [row] = await db.insert(pushMirrors).values({
      repoId: loaded.repo.id, remoteName: name, remoteAddress: remote.url,
      credentials: creds && key ? seal(key, secretPlace({ repoId: loaded.repo.id, remoteName: name }), creds) : null,
      syncOnCommit: input.syncOnCommit ?? false, intervalSeconds: interval, createdAt: now,
      nextSyncAt: interval ? new Date(now.getTime() + interval * 1000) : null,
    }).returning();
    return row!;
  }

  async remove(loaded: LoadedRepo, name: string): Promise<void> {
    this.writable(loaded);
    const gone = await this.deps.db.delete(pushMirrors).where(and(eq(pushMirrors.repoId, loaded.repo.id), eq(pushMirrors.remoteName, name)))
      .returning({ id: pushMirrors.id });
    if (!gone.length) throw new NotFound(`push mirror "${name}" does not exist`);
  }

  /** `push_mirrors-sync`: every push mirror of the repository, now, one after the other (one held elsewhere is left to that sync). */
  async syncAll(loaded: LoadedRepo): Promise<void> {
    this.writable(loaded);
    const { db } = this.deps;
    const all = await db.select({ id: pushMirrors.id }).from(pushMirrors).where(eq(pushMirrors.repoId, loaded.repo.id)).orderBy(asc(pushMirrors.id));
    for (const { id } of all) {
      const c = await this.claim(sql`${pushMirrors.id} = ${id}`);
      if (c) await this.push(c);
    }
  }

  /** The cron task's part: every push mirror whose interval has come, one after the other. */
  async syncDue(): Promise<string> {
    let synced = 0;
    for (;;) {
      const c = await this.claim(and(isNotNull(pushMirrors.nextSyncAt), lte(pushMirrors.nextSyncAt, new Date()))!);
      if (!c) break;
      await this.push(c);
      if (++synced >= 1000) break;
    }
    return `pushed ${synced} push mirror${synced === 1 ? '' : 's'}`;
  }

  /** The worker's round: one mirror marked by a push; false when none is waiting. */
  async runOnce(): Promise<boolean> {
    const c = await this.claim(isNotNull(pushMirrors.wantedAt));
    if (!c) return false;
    await this.push(c);
    return true;
  }

  /** Runs rounds until no mirror is wanted (tests). */
  async drain(): Promise<number> {
    let n = 0;
    while (await this.runOnce()) n++;
    return n;
  }

  /**
   * Takes the oldest free mirror matching `which` with a lease; its row as claimed and its mark in
   * PostgreSQL's own text (a JavaScript Date would drop the microseconds the comparison needs).
   */
  private async claim(which: SQL): Promise<{ row: PushMirrorRow; wanted: string | null } | undefined> {
    const leaseS = Math.ceil(this.deps.config.migrations.mirrorLeaseMs / 1000);
    const ids = rowsOf<{ id: string | number; wanted: string | null }>(await this.deps.db.execute(sql`
      update ${pushMirrors} set claimed_until = now() + make_interval(secs => ${leaseS})
      where id = (select p.id from ${pushMirrors} p where (p.claimed_until is null or p.claimed_until < now()) and p.id in (
        select ${pushMirrors.id} from ${pushMirrors} where ${which}) order by p.id limit 1 for update skip locked)
      returning id, wanted_at::text as wanted`));
    const got = ids[0];
    if (!got) return undefined;
    const [row] = await this.deps.db.select().from(pushMirrors).where(eq(pushMirrors.id, Number(got.id)));
    return row ? { row, wanted: got.wanted } : undefined;
  }

  /** Pushes a claimed mirror and gives it back with the outcome (the mark cleared only if no push set it again). */
  private async push(c: { row: PushMirrorRow; wanted: string | null }): Promise<void> {
    const { db, config } = this.deps;
    const m = c.row;
    let lastError = '';
    try {
      const [repo] = await db.select({ name: repositories.name, owner: users.name }).from(repositories)
        .innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, m.repoId));
      if (!repo) return;
      const remote = await checkRemote(config.migrations, m.remoteAddress, await this.credentialsOf(m));
      await pushMirror(repoDir(config.dataDir, repo.owner, repo.name), remote.url, gitAccess(remote));
    } catch (err) {
      lastError = remoteFailure(err);
      this.deps.log.warn({ repoId: m.repoId, remote: m.remoteName, err: lastError }, 'push mirror sync failed');
    }
    const next = m.intervalSeconds ? sql`now() + make_interval(secs => ${m.intervalSeconds})` : sql`null`;
    await db.update(pushMirrors).set({
      claimedUntil: null, lastUpdate: new Date(), lastError, nextSyncAt: next,
      wantedAt: c.wanted === null ? sql`${pushMirrors.wantedAt}` : sql`case when ${pushMirrors.wantedAt}::text = ${c.wanted} then null else ${pushMirrors.wantedAt} end`,
    }).where(eq(pushMirrors.id, m.id));
  }

  private async credentialsOf(m: PushMirrorRow): Promise<RemoteCredentials> {
    if (!m.credentials) return {};
    const text = open(await this.keys(), secretPlace(m), m.credentials);
    if (text === undefined) throw new Error('the push mirror\'s credentials cannot be opened with the configured SECRET_KEY');
    return JSON.parse(text) as RemoteCredentials;
  }
}
