// How an in-process cache learns that a table it copies rows of was written, by this process or by any
// other process on the same database, before it answers a request that came after the write was
// acknowledged (#31). A cache asks `version(tables)` before it uses an entry and keeps each entry with
// the version it read before its query: a different version means the entry may be stale.
//
// PostgreSQL: triggers (migration 0025) call `pg_notify('anvil_changes', <table>)` in the writing
// transaction, so the notification goes out when, and only if, the write commits — the committing
// backend signals every listener before the COMMIT is answered, hence before the writer acknowledges
// anything. Each process LISTENs on a connection of its own. Delivery to the listening connection is
// asynchronous, though: a request may reach this process a moment before the notification does. So
// `version` first sends one `select 1` down the listening connection: PostgreSQL sends a listener the
// notifications it was signalled of before the ReadyForQuery that ends the query, so once the answer is
// back, every write acknowledged before the request arrived has been counted. Requests arriving in the
// same turn of the event loop share that round trip. A lost connection (notifications missed) bumps
// every version, and so does listening again.
//
// PGlite: one process, one connection; every write statement passes through src/db/tableWrites.ts,
// which counts writes per table as they are sent and again when they are done.
import postgres from 'postgres';
import { tableGeneration } from './tableWrites.js';

export const changeChannel = 'anvil_changes';

export interface ChangeFeed {
  /**
   * A number that differs from any earlier answer whenever one of `tables` may have been written since,
   * counting every write acknowledged (by any process) before the call. Rejects when that cannot be
   * known (the database is unreachable): the caller then reads without its cache.
   */
  version(tables: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

/** This process's own writes, counted as drizzle sends them: exact where one process owns the database. */
export const inProcessChanges: ChangeFeed = {
  version: async (tables) => tables.reduce((sum, t) => sum + tableGeneration(t), 0),
  close: async () => {},
};

/** Notifications on a dedicated connection, made on first use (processes that never ask open none). */
export class PostgresChanges implements ChangeFeed {
  /** Bumped whenever notifications may have been missed: every version changes with it. */
  private epoch = 0;
  private readonly writes = new Map<string, number>();
  private sql: postgres.Sql | undefined;
  private listening: Promise<void> | undefined;
  /** The round trip that callers of this turn of the event loop wait for; undefined once it is sent. */
  private next: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly url: string) {}

  async version(tables: readonly string[]): Promise<number> {
    await this.sync();
    let v = this.epoch;
    for (const t of tables) v += this.writes.get(t) ?? 0;
    return v;
  }

  /** Waits until every notification committed before the call has been heard. */
  private sync(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the change feed is closed'));
    // Only a round trip sent after the caller arrived proves anything to it: callers join one not yet sent.
    return (this.next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.next = undefined;
      return this.roundTrip();
    }));
  }

  private async roundTrip(): Promise<void> {
    await this.listen();
    await this.sql!.unsafe('select 1');
  }

  private listen(): Promise<void> {
    return (this.listening ??= (async () => {
      // `onnotify` is the hook postgres.js's own listen() uses (absent from its types): it is called as
      // each notification is parsed, so before the query whose ReadyForQuery follows it resolves.
      const options = {
        max: 1,
        idle_timeout: 0,
        max_lifetime: null,
        fetch_types: false,
        onnotice: () => {},
        onnotify: (_channel: string, table: string) => void this.writes.set(table, (this.writes.get(table) ?? 0) + 1),
        onclose: () => this.lost(),
      };
      this.sql ??= postgres(this.url, options as postgres.Options<Record<string, never>>);
      await this.sql.unsafe(`listen ${changeChannel}`);
      // Whatever was cached while nobody listened may be stale.
      this.epoch++;
    })().catch((err) => {
      this.listening = undefined;
      throw err;
    }));
  }

  private lost(): void {
    this.epoch++;
    this.listening = undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.sql?.end({ timeout: 5 });
  }
}

// Keyed by the database handle (client.ts's Db; `object` here so that this file does not import client.ts).
const feeds = new WeakMap<object, ChangeFeed>();

/** Set by openDatabase: the feed of the database behind `db`. */
export function setChangeFeed(db: object, feed: ChangeFeed): void {
  feeds.set(db, feed);
}

/** The change feed of `db` (a handle opened elsewhere counts its own writes only). */
export function changesOf(db: object): ChangeFeed {
  return feeds.get(db) ?? inProcessChanges;
}
