// The code index (#41): the text files of each repository's default branch in `code_index_files`, whose
// trigram index answers code search. A push to the default branch (and a new repository or fork) marks
// the repository wanted in the push's own transaction (the fan-out below), so an acknowledged push is
// never missed; a round (jobs/codeIndex.ts) claims one wanted repository with a lease (one process at a
// time, taken over when a process dies), reads the branch's tree with git, rereads only the files whose
// blob changed, writes them in short transactions (none open while git runs) and clears the mark only if
// no push marked it again meanwhile: every push is followed by a round that sees it, several pushes
// that arrive during a round by one more round.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw.js';
import { codeIndexFiles, codeIndexRepos, repositories, users } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { readObjects } from '../../git/catFile.js';
import { treeEntries } from '../../git/gitData.js';
import { repoDir } from '../../git/paths.js';
import { refTarget } from '../../git/refs.js';
import type { ServiceDeps } from '../context.js';
import { addFanOut } from '../events/record.js';
import type { RecordedEvent } from '../events/types.js';
import { languageOf } from './languages.js';

/** Emitted when this process marked a repository wanted (wakes its worker; the poll covers the others). */
export const codeIndexQueued = new EventEmitter();

/** Files larger than this are not indexed (Gitea's default MAX_FILE_SIZE of its code indexer). */
export const maxIndexedFileBytes = 1024 * 1024;
/** Files read and written per transaction. */
const batch = 200;

const markWanted = (tx: Db, repoId: number, branchRef?: string) => tx.execute(sql`
  insert into ${codeIndexRepos} (repo_id, wanted_at)
  select r.id, clock_timestamp() from ${repositories} r
  where r.id = ${repoId} ${branchRef === undefined ? sql`` : sql`and 'refs/heads/' || r.default_branch = ${branchRef}`}
  on conflict (repo_id) do update set wanted_at = excluded.wanted_at`);

function wants(e: RecordedEvent): { repoId: number; ref?: string } | undefined {
  if (e.repoId === undefined) return undefined;
  if (e.type === 'push') return /^0+$/.test(e.after) || !e.ref.startsWith('refs/heads/') ? undefined : { repoId: e.repoId, ref: e.ref };
  if (e.type === 'repository' && e.action === 'created') return { repoId: e.repoId };
  if (e.type === 'fork') return { repoId: e.forkId };
  return undefined;
}

addFanOut(async (tx, e) => {
  const w = wants(e);
  if (!w) return;
  await markWanted(tx, w.repoId, w.ref);
  codeIndexQueued.emit('queued');
}, {
  // Quiet unless an event names a new repository or fork, or a push to a default branch (asked of the
  // recording statement, so pushes to other branches keep the one-statement way).
  quiet: (list) => {
    const asked = list.map((e) => wants(e as RecordedEvent));
    if (asked.every((w) => !w)) return true;
    if (asked.some((w) => w && w.ref === undefined)) return false;
    return sql`not exists (select 1 from ${repositories} r where ${sql.join(asked.filter((w) => w).map((w) =>
      sql`(r.id = ${w!.repoId} and 'refs/heads/' || r.default_branch = ${w!.ref})`), sql` or `)})`;
  },
});

export interface Claimed {
  repoId: number;
  /** The mark as claimed, in PostgreSQL's own text (a JavaScript Date would drop the microseconds). */
  wanted: string;
}

export class CodeIndexService {
  /** This process's name on the leases it holds. */
  readonly holder = randomUUID();

  constructor(private readonly deps: ServiceDeps, private readonly leaseSeconds = 120) {}

  /** Claims the longest-waiting wanted repository whose lease is free; undefined when none is. */
  async claim(): Promise<Claimed | undefined> {
    const rows = rowsOf<{ repo_id: string | number; wanted: string }>(await this.deps.db.execute(sql`
      update ${codeIndexRepos} set leased_by = ${this.holder}, lease_until = now() + make_interval(secs => ${this.leaseSeconds})
      where repo_id = (select c.repo_id from ${codeIndexRepos} c
        where c.wanted_at is not null and (c.lease_until is null or c.lease_until < now())
        order by c.wanted_at limit 1 for update skip locked)
      returning repo_id, wanted_at::text as wanted`));
    const r = rows[0];
    return r ? { repoId: Number(r.repo_id), wanted: r.wanted } : undefined;
  }

  /** One round: claims a repository and brings its files in step; false when nothing was wanted. */
  async runOnce(): Promise<boolean> {
    const c = await this.claim();
    if (!c) return false;
    try {
      await this.index(c);
    } catch (err) {
      // Given back at once: the mark stays, so the next round tries again.
      await this.deps.db.update(codeIndexRepos).set({ leasedBy: null, leaseUntil: null })
        .where(and(eq(codeIndexRepos.repoId, c.repoId), eq(codeIndexRepos.leasedBy, this.holder)));
      throw err;
    }
    return true;
  }

  /** Runs rounds until nothing is wanted (tests, the bench's catch-up measure). */
  async drain(): Promise<number> {
    let n = 0;
    while (await this.runOnce()) n++;
    return n;
  }

  private async renew(repoId: number): Promise<void> {
    const held = await this.deps.db.update(codeIndexRepos)
      .set({ leaseUntil: sql`now() + make_interval(secs => ${this.leaseSeconds})` })
      .where(and(eq(codeIndexRepos.repoId, repoId), eq(codeIndexRepos.leasedBy, this.holder))).returning({ id: codeIndexRepos.repoId });
    if (!held.length) throw new Error(`code index of repository ${repoId}: the lease was taken over`);
  }

  private async index(c: Claimed): Promise<void> {
    const { db, config } = this.deps;
    const [repo] = await db.select({ name: repositories.name, owner: users.name, branch: repositories.defaultBranch })
      .from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, c.repoId));
    if (!repo) return; // deleted meanwhile: its rows went with it
    const dir = repoDir(config.dataDir, repo.owner, repo.name);
    const commit = (await refTarget(dir, `refs/heads/${repo.branch}`)) ?? '';
    const files = commit
      ? (await treeEntries(dir, commit, true)).filter((e) => e.type === 'blob' && e.mode !== '120000' && e.size <= maxIndexedFileBytes)
      : [];
    const had = new Map((await db.select({ path: codeIndexFiles.path, blob: codeIndexFiles.blob }).from(codeIndexFiles)
      .where(eq(codeIndexFiles.repoId, c.repoId))).map((r) => [r.path, r.blob]));
    const wanted = new Set(files.map((f) => f.path));
    const gone = [...had.keys()].filter((p) => !wanted.has(p));
    const changed = files.filter((f) => had.get(f.path) !== f.id);
    for (let i = 0; i < gone.length; i += batch) {
      await this.renew(c.repoId);
      await db.delete(codeIndexFiles).where(and(eq(codeIndexFiles.repoId, c.repoId), inArray(codeIndexFiles.path, gone.slice(i, i + batch))));
    }
    for (let i = 0; i < changed.length; i += batch) {
      const part = changed.slice(i, i + batch);
      const objects = await readObjects(dir, part.map((f) => f.id));
      const rows: Array<typeof codeIndexFiles.$inferInsert> = [];
      const binary: string[] = [];
      part.forEach((f, j) => {
        const body = objects[j]?.body;
        // Binary files (a NUL in the first 8 KB, as git decides) are not searched.
        if (!body || body.subarray(0, 8000).includes(0)) binary.push(f.path);
        else rows.push({ repoId: c.repoId, path: f.path, blob: f.id, language: languageOf(f.path), content: body.toString('utf8').replace(/\0/g, '') });
      });
      await this.renew(c.repoId);
      await withTx(db, async (tx) => {
        if (binary.length) await tx.delete(codeIndexFiles).where(and(eq(codeIndexFiles.repoId, c.repoId), inArray(codeIndexFiles.path, binary)));
        if (rows.length) {
          await tx.insert(codeIndexFiles).values(rows).onConflictDoUpdate({
            target: [codeIndexFiles.repoId, codeIndexFiles.path],
            set: { blob: sql`excluded.blob`, language: sql`excluded.language`, content: sql`excluded.content` },
          });
        }
      });
    }
    // Done: the mark is cleared only if it is still the one claimed (a push meanwhile asks for another round).
    await db.execute(sql`update ${codeIndexRepos} set indexed_commit = ${commit}, indexed_at = now(), leased_by = null, lease_until = null,
      wanted_at = case when wanted_at::text = ${c.wanted} then null else wanted_at end
      where repo_id = ${c.repoId} and leased_by = ${this.holder}`);
  }
}
