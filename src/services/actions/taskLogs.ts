// A task's log, as Gitea keeps it: while the task runs, the rows a runner sends (UpdateLog) are kept in
// the database (action_task_log_chunks, Gitea's DBFS), each accepted batch once whatever process it
// reaches; when the runner says no more (or, for a task that ended without saying so, the stop_zombie_tasks
// sweep), the log is moved into the actions_log storage (a folder or S3), gzip'ed, as
// `<repo id>/<task id>.log.gz` (Gitea's `actions.TransferLogs`), and its rows leave the database. Reading
// works in both states, streamed. One process moves a log at a time (a claim on the task's row with a
// lease); a second mover, after a lapsed claim, writes the same bytes or nothing.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { and, asc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { actionRunJobs, actionTaskLogChunks, actionTasks, type ActionTaskRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { storeFor, type BlobStore } from '../../storage/index.js';
import type { ServiceDeps } from '../context.js';

/** How long a claim to move a log holds (a move that takes longer may be repeated by another process). */
const transferLeaseMs = 5 * 60_000;
/** Chunks read from the database at a time. */
const page = 100;

export interface LogRow {
  time?: Date;
  content: string;
}

/** Postgres text takes no NUL. */
const line = (r: LogRow) => `${(r.time ?? new Date()).toISOString()} ${r.content.replace(/\r?\n$/, '').replaceAll('\0', '\uFFFD')}\n`;

export class TaskLogs {
  readonly store: BlobStore;

  constructor(private readonly deps: ServiceDeps) {
    this.store = storeFor(deps.config, 'actions_log');
  }

  /** A log file of an older anvil, written under $DATA_DIR/actions_log while its task ran. */
  private legacyLive(task: ActionTaskRow): string | undefined {
    return task.logFile && !task.logCompressed ? join(this.deps.config.dataDir, 'actions_log', task.logFile) : undefined;
  }

  /**
   * Appends rows starting at row `index`: rows already received are skipped; a gap (index past what was
   * received) appends nothing; a log already moved to storage takes nothing. The count and the rows
   * change in one transaction (compare-and-set on the count), so each row is kept once. Answers how many
   * rows are now received.
   */
  async append(task: ActionTaskRow, index: number, rows: LogRow[]): Promise<number> {
    const ack = task.logLength;
    if (task.logCompressed || task.logTransferUntil || rows.length === 0 || index > ack || index + rows.length <= ack) return ack;
    const fresh = rows.slice(ack - index);
    return withTx(this.deps.db, async (tx) => {
      const [moved] = await tx
        .update(actionTasks)
        .set({ logLength: ack + fresh.length, updatedAt: new Date() })
        .where(and(eq(actionTasks.id, task.id), eq(actionTasks.logLength, ack), eq(actionTasks.logCompressed, false), isNull(actionTasks.logTransferUntil)))
        .returning({ n: actionTasks.logLength });
      if (!moved) {
        const [now] = await tx.select({ n: actionTasks.logLength }).from(actionTasks).where(eq(actionTasks.id, task.id));
        return now?.n ?? ack;
      }
      await tx.insert(actionTaskLogChunks).values({ taskId: task.id, firstRow: ack, rows: fresh.length, content: fresh.map(line).join('') });
      return moved.n;
    });
  }

  /** The rows kept in the database, page by page, counted into `counted`. */
  private async *chunks(taskId: number, counted: { rows: number }): AsyncGenerator<Buffer> {
    let after = -1;
    for (;;) {
      const batch = await this.deps.db
        .select()
        .from(actionTaskLogChunks)
        .where(and(eq(actionTaskLogChunks.taskId, taskId), gt(actionTaskLogChunks.firstRow, after)))
        .orderBy(asc(actionTaskLogChunks.firstRow))
        .limit(page);
      for (const c of batch) {
        counted.rows += c.rows;
        after = c.firstRow;
        yield Buffer.from(c.content, 'utf8');
      }
      if (batch.length < page) return;
    }
  }

  /** The live log: a legacy file's lines, then the database's. */
  private async *live(task: ActionTaskRow, counted: { rows: number }): AsyncGenerator<Buffer> {
    const legacy = this.legacyLive(task);
    if (legacy) {
      try {
        for await (const c of createReadStream(legacy)) yield c as Buffer;
      } catch (err) {
        if ((err as { code?: string }).code !== 'ENOENT') throw err;
      }
    }
    yield* this.chunks(task.id, counted);
  }

  private async stored(key: string): Promise<Readable | undefined> {
    const raw = await this.store.get(key);
    if (!raw) return undefined;
    const gunzip = createGunzip();
    raw.once('error', (err) => gunzip.destroy(err));
    return raw.pipe(gunzip);
  }

  /**
   * The task's log, streamed: from storage once moved there, else from the database. A log moved while it
   * is read goes on from storage where the database left off.
   */
  async open(taskId: number): Promise<Readable> {
    const [task] = await this.deps.db.select().from(actionTasks).where(eq(actionTasks.id, taskId));
    if (!task) return Readable.from([]);
    if (task.logCompressed) return (await this.stored(task.logFile)) ?? Readable.from([]);
    const self = this;
    return Readable.from((async function* () {
      const counted = { rows: 0 };
      let sent = 0;
      for await (const c of self.live(task, counted)) {
        sent += c.length;
        yield c;
      }
      if (counted.rows >= task.logLength) return;
      // Fewer rows than the task counted: the log moved meanwhile; the rest is in storage.
      const [now] = await self.deps.db.select().from(actionTasks).where(eq(actionTasks.id, taskId));
      if (!now?.logCompressed) return;
      const rest = await self.stored(now.logFile);
      if (!rest) return;
      for await (const c of rest as AsyncIterable<Buffer>) {
        if (sent >= c.length) {
          sent -= c.length;
          continue;
        }
        yield sent ? c.subarray(sent) : c;
        sent = 0;
      }
    })());
  }

  /**
   * Moves the task's log into storage (gzip'ed), once: the caller that claims the task's row writes the
   * log and marks it moved in the transaction that deletes its rows from the database. Answers whether
   * the log is in storage now. A mover whose claim lapsed and that read the rows only partly (another
   * mover deleted them meanwhile) refuses its upload, so the stored log is never cut short.
   */
  async transfer(taskId: number): Promise<boolean> {
    const now = new Date();
    const [task] = await this.deps.db
      .update(actionTasks)
      .set({ logTransferUntil: new Date(now.getTime() + transferLeaseMs) })
      .where(and(eq(actionTasks.id, taskId), eq(actionTasks.logCompressed, false), or(isNull(actionTasks.logTransferUntil), lt(actionTasks.logTransferUntil, now))))
      .returning();
    if (!task) {
      const [row] = await this.deps.db.select({ done: actionTasks.logCompressed }).from(actionTasks).where(eq(actionTasks.id, taskId));
      return row?.done ?? false;
    }
    // The rows to move: none is added once the claim is made (append wants no claim), and they go only
    // with the mark that the log moved.
    const [[job], [expected]] = await Promise.all([
      this.deps.db.select({ repoId: actionRunJobs.repoId }).from(actionRunJobs).where(eq(actionRunJobs.id, task.jobId)),
      this.deps.db.select({ rows: sql<string>`coalesce(sum(${actionTaskLogChunks.rows}), 0)` }).from(actionTaskLogChunks).where(eq(actionTaskLogChunks.taskId, task.id)),
    ]);
    const key = `${job?.repoId ?? 0}/${task.id}.log.gz`;
    const counted = { rows: 0 };
    const legacy = this.legacyLive(task);
    const gzip = createGzip();
    const source = Readable.from(this.live(task, counted));
    source.once('error', (err) => gzip.destroy(err));
    await this.store.put(key, source.pipe(gzip), {
      end: () => {
        if (counted.rows !== Number(expected?.rows ?? 0)) throw new Error(`task ${task.id}'s log rows went while they were read`);
      },
    });
    const moved = await withTx(this.deps.db, async (tx) => {
      const [done] = await tx
        .update(actionTasks)
        .set({ logFile: key, logCompressed: true, logTransferUntil: null })
        .where(and(eq(actionTasks.id, task.id), eq(actionTasks.logCompressed, false)))
        .returning({ id: actionTasks.id });
      if (done) await tx.delete(actionTaskLogChunks).where(eq(actionTaskLogChunks.taskId, task.id));
      return !!done;
    });
    if (moved && legacy) await rm(legacy, { force: true });
    return true;
  }

  /**
   * The sweep (stop_zombie_tasks): logs of tasks that ended more than `graceMs` ago and whose runner
   * never said no more are moved into storage. Answers how many.
   */
  async transferEnded(graceMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - graceMs);
    const rows = await this.deps.db
      .select({ id: actionTasks.id })
      .from(actionTasks)
      .where(and(
        eq(actionTasks.logCompressed, false), ne(actionTasks.status, 'running'), lt(actionTasks.updatedAt, cutoff),
        or(isNull(actionTasks.logTransferUntil), lt(actionTasks.logTransferUntil, new Date())),
        or(ne(actionTasks.logFile, ''), sql`exists (select 1 from ${actionTaskLogChunks} c where c.task_id = ${actionTasks.id})`),
      ))
      .limit(500);
    let n = 0;
    for (const { id } of rows) {
      try {
        if (await this.transfer(id)) n++;
      } catch (err) {
        this.deps.log.warn({ err: (err as Error).message, task: id }, 'task log not moved to storage');
      }
    }
    return n;
  }

  /** Removes stored logs (`log_file` keys of deleted tasks); a live log's rows went with its task. */
  async remove(keys: string[]): Promise<void> {
    for (const key of keys) {
      if (!key) continue;
      await this.store.remove(key).catch((err: Error) => this.deps.log.warn({ err: err.message, key }, 'task log not removed'));
      // A legacy live file (its task ended before it was moved) is under $DATA_DIR/actions_log.
      if (!key.endsWith('.gz')) await rm(join(this.deps.config.dataDir, 'actions_log', key), { force: true });
    }
  }
}
