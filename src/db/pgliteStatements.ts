// PGlite runs every query as an unnamed statement, so PostgreSQL parses and plans it again on each call,
// on the server's one thread: the repository-with-permission query of every repository request took
// 2.5–6 ms that way against 1.2 ms once planned. This client, handed to Drizzle in PGlite's place, keeps
// a named (protocol-level) prepared statement per distinct SQL text of the data statements (select,
// insert, update, delete, with), as postgres.js does on PostgreSQL: the first call parses and describes
// it, later calls only bind and execute. PostgreSQL re-plans a named statement by itself when a table it
// reads changes. Everything else (DDL, BEGIN and friends, COPY blobs, statements beyond the cache's size)
// goes through PGlite's own query as before. Runs under PGlite's own locks, exactly as its query does.
// PGLITE_STATEMENT_CACHE=0 turns it off.
import { parse as pgParse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

const { serialize } = protocol;
/** Prepared statements kept (least recently used closed first): each holds its parsed query and plan in PGlite's memory. */
const maxStatements = 500;
const cacheable = /^\s*(select|insert|update|delete|with)\b/i;

interface Statement {
  name: string;
  /** Parameter type ids, once parsed and described. */
  types?: number[];
}

type Messages = Awaited<ReturnType<PGlite['execProtocolStream']>>;

export class PgliteStatementCache {
  /** SQL text → statement, least recently used first. */
  private readonly statements = new Map<string, Statement>();
  private named = 0;
  /** Statements evicted from the map, closed in PGlite before the next one is prepared. */
  private toClose: string[] = [];

  constructor(private readonly pg: PGlite) {}

  private statementFor(text: string, options?: QueryOptions): Statement | undefined {
    if (options?.blob || !cacheable.test(text)) return undefined;
    let s = this.statements.get(text);
    if (s) {
      this.statements.delete(text); // most recently used last
      this.statements.set(text, s);
      return s;
    }
    this.statements.set(text, (s = { name: `anvil_${++this.named}` }));
    if (this.statements.size > maxStatements) {
      const [oldest, evicted] = this.statements.entries().next().value!;
      this.statements.delete(oldest);
      // Closing a name never prepared is no error; a call still waiting with it prepares it again.
      this.toClose.push(evicted.name);
      evicted.types = undefined;
    }
    return s;
  }

  /** Runs one statement inside PGlite's query lock (the caller holds the transaction lock, or is the transaction). */
  private run<T>(s: Statement, text: string, params: unknown[], options: QueryOptions | undefined, inTx: boolean): Promise<Results<T>> {
    const pg = this.pg;
    return pg._runExclusiveQuery(async () => {
      const send = (m: Uint8Array) => pg.execProtocolStream(m, { syncToFs: false, onNotice: options?.onNotice });
      const messages: Messages = [];
      try {
        if (!s.types) {
          for (const name of this.toClose.splice(0)) await send(serialize.close({ type: 'S', name }));
          try {
            await send(serialize.parse({ name: s.name, text, types: options?.paramTypes }));
            s.types = pgParse.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name: s.name })));
          } catch (err) {
            // Not prepared (or half): the next call starts over under a new name.
            this.statements.delete(text);
            throw err;
          }
        }
        const types = s.types;
        const values = params.map((v, i) => {
          if (v === null || v === undefined) return null;
          const serializer = options?.serializers?.[types[i]!] ?? pg.serializers[types[i]!];
          return serializer ? serializer(v) : String(v);
        });
        messages.push(...(await send(serialize.bind({ statement: s.name, values }))));
        messages.push(...(await send(serialize.describe({ type: 'P' }))));
        messages.push(...(await send(serialize.execute({}))));
      } catch (err) {
        // As PGlite's own query: the error says which statement and parameters failed.
        if (err && typeof err === 'object') Object.assign(err, { query: text, params, queryOptions: options });
        throw err;
      } finally {
        messages.push(...(await send(serialize.sync())));
      }
      if (!inTx) await pg.syncToFs();
      // PGlite's parseResults merges a query's own parsers into its 318 type parsers by spreading both into
      // a new object: 0.24 ms per query, more than many of the queries themselves took (Drizzle gives
      // every query nine parsers of its own). An object that holds the query's few and inherits the rest
      // answers the same lookups (the parser for a type: the query's own, else PGlite's) for a microsecond.
      if (!options?.parsers) return pgParse.parseResults(messages, pg.parsers, options)[0] as Results<T>;
      const parsers = Object.assign(Object.create(pg.parsers) as typeof pg.parsers, options.parsers);
      return pgParse.parseResults(messages, parsers, { ...options, parsers: undefined })[0] as Results<T>;
    });
  }

  async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const s = this.statementFor(text, options);
    if (!s) return this.pg.query<T>(text, params, options);
    await (this.pg as unknown as { _checkReady(): Promise<void> })._checkReady();
    return this.pg._runExclusiveTransaction(() => this.run<T>(s, text, params, options, false));
  }

  exec(text: string, options?: QueryOptions): Promise<Array<Results>> {
    return this.pg.exec(text, options);
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.pg.transaction((tx) => {
      const cached: Transaction = Object.create(tx, {
        query: {
          value: <R>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<R>> => {
            const s = tx.closed ? undefined : this.statementFor(text, options);
            return s ? this.run<R>(s, text, params, options, true) : tx.query<R>(text, params, options);
          },
        },
      });
      return fn(cached);
    });
  }

  /** The client Drizzle is given: PGlite's own, with query and transaction going through the cache. */
  static client(pg: PGlite): PGlite {
    if (process.env.PGLITE_STATEMENT_CACHE === '0') return pg;
    return new PgliteStatementCache(pg) as unknown as PGlite;
  }
}
