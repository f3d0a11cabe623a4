// Pull mirrors (#39): fetching a mirror's remote into it, on request (`mirror-sync`) and on its interval
// (the `update_mirrors` cron task). Each sync claims its mirror's row with a conditional update, so
// however many processes ask, one syncs at a time; a sync whose process died is taken again once its
// claim (MIRROR_LEASE_SECONDS) lapses. The refs a sync moved are recorded as pushes by the mirror's
// owner, so webhooks, the feed and Actions react as for a push.
import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import { pullMirrors, repositories, users, type PullMirrorRow, type RepoRow } from '../../db/schema/index.js';
import { repoDir } from '../../git/paths.js';
import type { RefChange } from '../../git/pushLog.js';
import { refTargets, setHead } from '../../git/refs.js';
import { fetchRemote, remoteFailure, remoteHead } from '../../git/remote.js';
import { canWrite } from '../../permissions/repo.js';
import { open, type SecretKey } from '../actions/secretBox.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden } from '../errors.js';
import type { BranchService } from '../git/branches.js';
import type { LoadedRepo } from './loadedRepo.js';
import { LfsFetcher } from './migrateLfs.js';
import { mirrorSecretPlace } from './mirrorSettings.js';
import { checkRemote, gitAccess, type RemoteCredentials } from './remoteAccess.js';

const zero = '0000000000000000000000000000000000000000';

/** What a repository's JSON shows of its pull mirror: its interval and when it last synced. */
export interface MirrorView {
  intervalSeconds: number;
  lastSyncAt: Date | null;
}

export class MirrorService {
  private readonly lfs: LfsFetcher;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly branches: BranchService,
    private readonly keys: () => Promise<SecretKey[]>,
  ) {
    this.lfs = new LfsFetcher(deps);
  }

  /** `mirror-sync`: the sync is due now and starts in the background (its outcome is the mirror's row). */
  async requestSync(loaded: LoadedRepo): Promise<void> {
    if (!canWrite(loaded.perm, 'repo.code')) throw new Forbidden('user should have write access to the code');
    if (!loaded.repo.isMirror) throw new BadRequest('Repository is not a mirror');
    await this.deps.db.update(pullMirrors).set({ nextSyncAt: new Date() }).where(eq(pullMirrors.repoId, loaded.repo.id));
    void this.sync(loaded.repo.id).catch((err: Error) => this.deps.log.warn({ err: err.message, repoId: loaded.repo.id }, 'mirror sync failed'));
  }

  /** The mirror settings of those of `repos` that are pull mirrors, by repository id (one query for a whole list). */
  async viewsOf(repos: Array<{ id: number; isMirror: boolean }>): Promise<Map<number, MirrorView>> {
    const ids = repos.filter((r) => r.isMirror).map((r) => r.id);
    if (ids.length === 0) return new Map();
    const rows = await this.deps.db.select({ repoId: pullMirrors.repoId, intervalSeconds: pullMirrors.intervalSeconds, lastSyncAt: pullMirrors.lastSyncAt })
      .from(pullMirrors).where(inArray(pullMirrors.repoId, ids));
    return new Map(rows.map(({ repoId, ...view }) => [repoId, view]));
  }

  async viewOf(repo: { id: number; isMirror: boolean }): Promise<MirrorView | undefined> {
    return (await this.viewsOf([repo])).get(repo.id);
  }

  /** The cron task: every mirror whose sync is due, one after the other. */
  async syncDue(): Promise<string> {
    const now = new Date();
    const due = await this.deps.db.select({ repoId: pullMirrors.repoId }).from(pullMirrors)
      .where(and(lte(pullMirrors.nextSyncAt, now), or(isNull(pullMirrors.claimedUntil), lt(pullMirrors.claimedUntil, now))))
      .orderBy(asc(pullMirrors.nextSyncAt)).limit(100);
    let synced = 0;
    for (const { repoId } of due) if ((await this.sync(repoId)) !== undefined) synced++;
    return `synced ${synced} mirror${synced === 1 ? '' : 's'}`;
  }

  /**
   * Syncs one mirror if no other sync holds it: answers the number of refs moved, or undefined when another
   * sync had it. A failure is kept as the mirror's last error.
   */
  async sync(repoId: number): Promise<number | undefined> {
    const { db, config } = this.deps;
    const now = new Date();
    const [claim] = await db.update(pullMirrors).set({ claimedUntil: new Date(now.getTime() + config.migrations.mirrorLeaseMs) })
      .where(and(eq(pullMirrors.repoId, repoId), or(isNull(pullMirrors.claimedUntil), lt(pullMirrors.claimedUntil, now)))).returning();
    if (!claim) return undefined;
    // Writes of this sync apply only while it still holds the mirror.
    const held = and(eq(pullMirrors.repoId, repoId), eq(pullMirrors.claimedUntil, claim.claimedUntil!));
    const release = (set: Partial<PullMirrorRow>) => db.update(pullMirrors).set({
      claimedUntil: null, lastSyncAt: new Date(), nextSyncAt: claim.intervalSeconds ? new Date(Date.now() + claim.intervalSeconds * 1000) : null, ...set,
    }).where(held);
    try {
      const [row] = await db.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
        .where(eq(repositories.id, repoId));
      if (!row) return 0;
      const dir = repoDir(config.dataDir, row.owner.name, row.repo.name);
      const isRef = (r: string) => r.startsWith('refs/heads/') || r.startsWith('refs/tags/');
      const current = async () => new Map([...(await refTargets(dir))].filter(([r]) => isRef(r)));
      // The refs moved from `before` to `after` recorded as pushes, and the pending mark cleared, in one
      // transaction, only while this sync holds the mirror.
      const record = async (before: Map<string, string>, after: Map<string, string>, patch: Partial<RepoRow>) => {
        const changes: RefChange[] = [];
        for (const [ref, sha] of after) if (before.get(ref) !== sha) changes.push({ ref, before: before.get(ref) ?? zero, after: sha });
        for (const [ref, sha] of before) if (!after.has(ref)) changes.push({ ref, before: sha, after: zero });
        if (changes.length || patch.defaultBranch) {
          await this.branches.refsChanged({ repo: row.repo, owner: row.owner }, row.owner.id, changes, [...before.values()], patch, async (tx) => {
            const [still] = await tx.update(pullMirrors).set({ pendingRefs: null }).where(held).returning({ repoId: pullMirrors.repoId });
            if (!still) throw new Error('the mirror\'s sync lost its claim before recording its changes');
          });
        }
        return changes.length;
      };
      // A sync whose process died after fetching left the refs before its fetch in the row: its changes
      // are recorded first (whether or not the remote answers now), then this sync fetches.
      let moved = 0;
      if (claim.pendingRefs) moved += await record(new Map(Object.entries(claim.pendingRefs)), await current(), {});
      const credentials = await this.credentialsOf(claim);
      const remote = await checkRemote(config.migrations, claim.remoteUrl, credentials);
      const access = gitAccess(remote);
      // The refs before this fetch, kept in the row until its changes are recorded.
      const before = await current();
      await db.update(pullMirrors).set({ pendingRefs: Object.fromEntries(before) }).where(held);
      await fetchRemote(dir, remote.url, ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], access, { prune: claim.enablePrune });
      // Tests only: die as a crash would, after git moved the refs and before anything is recorded.
      if (config.leftovers.crashAfterMirrorFetch) process.kill(process.pid, 'SIGKILL');
      // The LFS objects the refs now reach and the mirror lacks, before the pushes are recorded (Gitea's
      // order); a failure is logged and tried again by the next sync, which looks at every pointer again.
      if (claim.lfs && config.lfs.enabled) await this.lfs.syncMirror(repoId, dir, remote, claim.lfsEndpoint);
      const after = await current();
      const head = await remoteHead(config.dataDir, remote.url, access).catch(() => undefined);
      const patch = head && head !== row.repo.defaultBranch && after.has(`refs/heads/${head}`) ? { defaultBranch: head } : {};
      if (patch.defaultBranch) await setHead(dir, patch.defaultBranch);
      moved += await record(before, after, patch);
      await release({ lastError: '', pendingRefs: null, ...(moved ? { updatedAt: new Date() } : {}) });
      return moved;
    } catch (err) {
      const message = remoteFailure(err);
      this.deps.log.warn({ repoId, err: message }, 'mirror sync failed');
      await release({ lastError: message });
      return 0;
    }
  }

  private async credentialsOf(m: PullMirrorRow): Promise<RemoteCredentials> {
    if (!m.credentials) return {};
    const text = open(await this.keys(), mirrorSecretPlace(m.repoId), m.credentials);
    if (text === undefined) throw new Error('the mirror\'s credentials cannot be opened with the configured SECRET_KEY');
    return JSON.parse(text) as RemoteCredentials;
  }
}
