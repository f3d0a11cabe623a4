// A repository's statistics of its default branch (#38): bytes per language (`repo_languages`, the
// repository's primary `language`) and the licenses its license files hold (`repositories.licenses`),
// computed once per change in the background and read by the API, never computed per request. As the code
// index (services/search/codeIndex.ts): a push to the default branch, a new repository (created, migrated,
// forked, adopted) and a change of the default branch mark the repository wanted (`repo_stats.wanted_at`)
// in their own transaction, so an acknowledged change is never missed; a round (jobs/repoStats.ts) claims
// one wanted repository with a lease (one process at a time, taken over when a process dies), reads git
// with no transaction open, writes the results in one short transaction that also clears the mark, only
// if no change marked it again meanwhile and only while it still holds the lease. A commit already
// computed is not computed again (Gitea's stats indexer skips it too).
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { and, desc, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw.js';
import { repoLanguages, repoStats, repositories, users, type RepoLanguageRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { attributesAt } from '../../git/attributes.js';
import { readObjects } from '../../git/catFile.js';
import { treeEntries } from '../../git/gitData.js';
import { repoDir } from '../../git/paths.js';
import { refTarget } from '../../git/refs.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { NotFound } from '../errors.js';
import { addFanOut } from '../events/record.js';
import type { RecordedEvent } from '../events/types.js';
import type { LoadedRepo } from './loadedRepo.js';
import { detectLicense, isLicenseFileName, maxLicenseFileBytes } from '../git/licenseDetect.js';
import { languageBigFileBytes, languageContentBytes, languageSizes, linguistAttributes, type StatFile } from './languageStats.js';

/** Emitted when this process marked a repository wanted (wakes its worker; the poll covers the others). */
export const repoStatsQueued = new EventEmitter();

/**
 * Marks a repository's statistics wanted, in the caller's transaction; with `branchRef`, only when that
 * ref is the repository's default branch.
 */
export async function markRepoStatsWanted(tx: Db, repoId: number, branchRef?: string): Promise<void> {
  await tx.execute(sql`
    insert into ${repoStats} (repo_id, wanted_at)
    select r.id, clock_timestamp() from ${repositories} r
    where r.id = ${repoId} ${branchRef === undefined ? sql`` : sql`and 'refs/heads/' || r.default_branch = ${branchRef}`}
    on conflict (repo_id) do update set wanted_at = excluded.wanted_at`);
  repoStatsQueued.emit('queued');
}

function wants(e: RecordedEvent): { repoId: number; ref?: string } | undefined {
  if (e.repoId === undefined) return undefined;
  if (e.type === 'push') return /^0+$/.test(e.after) || !e.ref.startsWith('refs/heads/') ? undefined : { repoId: e.repoId, ref: e.ref };
  if (e.type === 'repository' && e.action === 'created') return { repoId: e.repoId };
  return undefined;
}

addFanOut(async (tx, e) => {
  const w = wants(e);
  if (w) await markRepoStatsWanted(tx, w.repoId, w.ref);
}, {
  // Quiet unless an event names a new repository or a push to a default branch (asked of the recording
  // statement, so pushes to other branches keep the one-statement way).
  quiet: (list) => {
    const asked = list.map((e) => wants(e as RecordedEvent));
    if (asked.every((w) => !w)) return true;
    if (asked.some((w) => w && w.ref === undefined)) return false;
    return sql`not exists (select 1 from ${repositories} r where ${sql.join(asked.filter((w) => w).map((w) =>
      sql`(r.id = ${w!.repoId} and 'refs/heads/' || r.default_branch = ${w!.ref})`), sql` or `)})`;
  },
});

interface Claimed {
  repoId: number;
  /** The mark as claimed, in PostgreSQL's own text (a JavaScript Date would drop the microseconds). */
  wanted: string;
}

/** Blobs read per batch while classifying. */
const batch = 200;

export class RepoStatsService {
  /** This process's name on the leases it holds. */
  readonly holder = randomUUID();

  constructor(private readonly deps: ServiceDeps, private readonly leaseSeconds = 120) {}

  /**
   * Bytes per language of the default branch as last computed, largest first; [] before the first round.
   * Readers of the code only (not found for others).
   */
  async languages(loaded: LoadedRepo): Promise<RepoLanguageRow[]> {
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
    return this.deps.db.select().from(repoLanguages).where(eq(repoLanguages.repoId, loaded.repo.id))
      .orderBy(desc(repoLanguages.bytes), asc(repoLanguages.language));
  }

  /** Claims the longest-waiting wanted repository whose lease is free; undefined when none is. */
  async claim(): Promise<Claimed | undefined> {
    const rows = rowsOf<{ repo_id: string | number; wanted: string }>(await this.deps.db.execute(sql`
      update ${repoStats} set leased_by = ${this.holder}, lease_until = now() + make_interval(secs => ${this.leaseSeconds})
      where repo_id = (select s.repo_id from ${repoStats} s
        where s.wanted_at is not null and (s.lease_until is null or s.lease_until < now())
        order by s.wanted_at limit 1 for update skip locked)
      returning repo_id, wanted_at::text as wanted`));
    const r = rows[0];
    return r ? { repoId: Number(r.repo_id), wanted: r.wanted } : undefined;
  }

  /** One round: claims a repository and computes its statistics; false when nothing was wanted. */
  async runOnce(): Promise<boolean> {
    const c = await this.claim();
    if (!c) return false;
    try {
      await this.compute(c);
    } catch (err) {
      // Given back at once: the mark stays, so the next round tries again.
      await this.deps.db.update(repoStats).set({ leasedBy: null, leaseUntil: null })
        .where(and(eq(repoStats.repoId, c.repoId), eq(repoStats.leasedBy, this.holder)));
      throw err;
    }
    return true;
  }

  /** Runs rounds until nothing is wanted (tests). */
  async drain(): Promise<number> {
    let n = 0;
    while (await this.runOnce()) n++;
    return n;
  }

  private async compute(c: Claimed): Promise<void> {
    const { db, config } = this.deps;
    const [repo] = await db.select({ name: repositories.name, owner: users.name, branch: repositories.defaultBranch, done: repoStats.commit, computedAt: repoStats.computedAt })
      .from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).innerJoin(repoStats, eq(repoStats.repoId, repositories.id))
      .where(eq(repositories.id, c.repoId));
    if (!repo) return; // deleted meanwhile: its rows went with it
    const dir = repoDir(config.dataDir, repo.owner, repo.name);
    const commit = (await refTarget(dir, `refs/heads/${repo.branch}`)) ?? '';
    const fresh = repo.computedAt === null || repo.done !== commit;
    const stats = fresh ? await this.read(dir, commit) : undefined;
    await withTx(db, async (tx) => {
      const done = rowsOf<{ repo_id: unknown }>(await tx.execute(sql`update ${repoStats} set
        ${fresh ? sql`commit = ${commit}, computed_at = now(), rounds = rounds + 1,` : sql``}
        leased_by = null, lease_until = null,
        wanted_at = case when wanted_at::text = ${c.wanted} then null else wanted_at end
        where repo_id = ${c.repoId} and leased_by = ${this.holder} returning repo_id`));
      // The lease lapsed and another process took the round over: it writes the statistics.
      if (!done.length || !stats) return;
      await tx.delete(repoLanguages).where(eq(repoLanguages.repoId, c.repoId));
      if (stats.languages.length) {
        await tx.insert(repoLanguages).values(stats.languages.map(([language, bytes]) => ({ repoId: c.repoId, language, bytes, commit })));
      }
      await tx.update(repositories).set({ language: stats.languages[0]?.[0] ?? '', licenses: stats.licenses }).where(eq(repositories.id, c.repoId));
    });
  }

  /** The statistics of `commit` ('' : an empty branch, none). */
  private async read(dir: string, commit: string): Promise<{ languages: Array<[string, number]>; licenses: string[] }> {
    if (!commit) return { languages: [], licenses: [] };
    const entries = await treeEntries(dir, commit, true);
    const blobs = entries.filter((e) => e.type === 'blob');
    const attrs = await attributesAt(dir, entries, blobs.map((b) => b.path), linguistAttributes);
    const files: StatFile[] = blobs.map((b) => ({ path: b.path, size: b.size, attrs: attrs.get(b.path), id: b.id }));
    const ids = new Map(blobs.map((b) => [b.path, b.id]));
    const languages = await languageSizes(files, async (wanted) => {
      const out = new Map<string, Buffer>();
      const read = wanted.filter((f) => f.size <= languageBigFileBytes);
      for (let i = 0; i < read.length; i += batch) {
        const part = read.slice(i, i + batch);
        const objects = await readObjects(dir, part.map((f) => ids.get(f.path)!));
        part.forEach((f, j) => {
          const body = objects[j]?.body;
          if (body) out.set(f.path, Buffer.from(body.subarray(0, languageContentBytes)));
        });
      }
      return out;
    });
    const found = new Set<string>();
    for (const f of blobs) {
      // Root-level license files only; a license text is a few tens of KB, a large file by that name is not one.
      if (f.path.includes('/') || f.mode === '120000' || !isLicenseFileName(f.path) || f.size > maxLicenseFileBytes) continue;
      const body = (await readObjects(dir, [f.id]))[0]?.body;
      const id = body ? detectLicense(body.toString('utf8')) : undefined;
      if (id) found.add(id);
    }
    return { languages, licenses: [...found].sort() };
  }
}
