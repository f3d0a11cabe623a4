// The journals of repository folder moves (git/folderMoves.ts) as leased rows: written and committed
// before a folder moves, renewed while the move runs, deleted by their holder when it is final. A row
// whose lease lapsed belongs to a process that died mid-move: any live process claims it (one conditional
// UPDATE; FOR UPDATE SKIP LOCKED) and mends the folders, then deletes the row.
import { and, eq, gte, ne, sql } from 'drizzle-orm';
import { folderJournals, repositories } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import {
  journalledFolders, mendCreate, mendDelete, sweepOrphans, type CreateJournal, type DeleteJournal, type Journal, type JournalStore, type OpenJournal,
} from '../../git/folderMoves.js';
import type { ServiceDeps } from '../context.js';
import { claimLapsed, keepRenewed, leaseEnd, LeaseLost, newHolder } from '../leases.js';

export class FolderJournals implements JournalStore {
  private readonly holder = newHolder();

  constructor(private readonly deps: ServiceDeps) {}

  async open(journal: Journal): Promise<OpenJournal> {
    const { db, config, log } = this.deps;
    const { leaseMs } = config.leftovers;
    const [row] = await db.insert(folderJournals)
      .values({ kind: journal.kind, data: journal.data as unknown as Record<string, unknown>, holder: this.holder, leaseUntil: leaseEnd(leaseMs) })
      .returning({ id: folderJournals.id });
    const mine = and(eq(folderJournals.id, row!.id), eq(folderJournals.holder, this.holder));
    const stop = keepRenewed(leaseMs, () => db.update(folderJournals).set({ leaseUntil: leaseEnd(leaseMs) }).where(mine), log);
    return {
      hold: async (tx: unknown) => {
        const [held] = await (tx as Db).select({ id: folderJournals.id }).from(folderJournals).where(mine).for('update');
        if (!held) {
          stop();
          throw new LeaseLost(`the journal of a repository folder move (${row!.id}) was taken over: this process stalled past its lease`);
        }
      },
      close: async () => {
        stop();
        // The move is final whether or not the row goes now: a row left behind is mended (to the same
        // end) once its lease lapses, so a failure here is logged, not answered.
        await db.delete(folderJournals).where(mine).catch((err: Error) => log.warn({ err: err.message, journal: row!.id }, 'could not drop a folder journal'));
      },
    };
  }

  /** Claims up to `limit` journals whose lease lapsed and mends their folders; answers what it did. */
  async recover(limit = 5): Promise<{ taken: number; restored: number; removed: number }> {
    const { db, config, log } = this.deps;
    const now = new Date();
    const claimed = await claimLapsed(db, folderJournals, this.holder, config.leftovers.leaseMs, limit);
    let restored = 0;
    let removed = 0;
    for (const row of claimed) {
      try {
        if (row.kind === 'delete') {
          const j = row.data as unknown as DeleteJournal;
          const exists = (await db.select({ id: repositories.id }).from(repositories).where(eq(repositories.id, j.repoId))).length > 0;
          if (mendDelete(j, exists) === 'restored') restored++;
          else removed++;
        } else if (row.kind === 'create') {
          const j = row.data as unknown as CreateJournal;
          const taken = (await db.select({ id: repositories.id }).from(repositories)
            .where(and(eq(repositories.ownerId, j.ownerId), eq(repositories.lowerName, j.lowerName)))).length > 0;
          // Another creation of the same name, alive, may have moved its own folder into place.
          const other = (await db.select({ id: folderJournals.id }).from(folderJournals).where(and(
            ne(folderJournals.id, row.id), eq(folderJournals.kind, 'create'), gte(folderJournals.leaseUntil, now),
            sql`${folderJournals.data}->>'final' = ${j.final}`,
          ))).length > 0;
          if (mendCreate(j, taken, other) === 'removed') removed++;
        }
        await db.delete(folderJournals).where(and(eq(folderJournals.id, row.id), eq(folderJournals.holder, this.holder)));
        log.warn({ journal: row.id, kind: row.kind }, 'mended the repository folders of an interrupted move');
      } catch (err) {
        // Left leased: taken again when the lease lapses.
        log.warn({ err, journal: row.id }, 'could not mend an interrupted folder move');
      }
    }
    return { taken: claimed.length, restored, removed: removed + (await this.sweep()) };
  }

  /**
   * Removes the scratch and trash folders of `tmp/` that no journal names and that are older than two
   * leases (git/folderMoves.ts sweepOrphans); the journals are read only when there is such a folder.
   */
  private async sweep(): Promise<number> {
    const { db, config, log } = this.deps;
    const minAgeMs = 2 * config.leftovers.leaseMs;
    const old = journalledFolders(config.dataDir).filter((f) => f.ageMs >= minAgeMs);
    if (!old.length) return 0;
    const named = new Set<string>();
    for (const r of await db.select({ data: folderJournals.data }).from(folderJournals)) {
      const d = r.data as Partial<CreateJournal & DeleteJournal>;
      if (d.scratch) named.add(d.scratch);
      if (d.trash) named.add(d.trash);
    }
    const gone = sweepOrphans(old, named, minAgeMs);
    if (gone.length) log.warn({ folders: gone }, 'removed repository folders no journal names (left by a process that stalled past its lease)');
    return gone.length;
  }
}
