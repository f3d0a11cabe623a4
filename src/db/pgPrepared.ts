// Named prepared statements on PostgreSQL for Drizzle's queries.
//
// Drizzle asks postgres.js for an unnamed statement unless a query was given a name (`.prepare(name)`),
// and postgres.js sends an unnamed statement with parameters in two round trips: Parse/Describe/Sync
// first (it needs the parameter types to encode the values), then Bind/Execute. A named statement is
// described once per connection and then costs one round trip, as a hand-written server's would. Inside
// a transaction every round trip is time the transaction's row locks are held: creating an issue holds
// the repository's number counter across three statements, so halving their round trips halves the
// time 32 writers to one repository queue behind each other.
//
// postgres.js keeps a connection's named statements for the connection's life (it has no eviction), so
// the texts prepared are bounded: the first PREPARED_TEXTS distinct texts with parameters are prepared on
// every connection that sends them, any other text goes unnamed as before. The server's memory for them
// is bounded by that number times the pool size. `DATABASE_PREPARE=false` turns preparing off (for a
// pooler in transaction mode that cannot keep a session's statements, such as PgBouncer before 1.21).
import type postgres from 'postgres';

type Sql = postgres.Sql;

/** Distinct statement texts one process prepares at most (beyond: unnamed, two round trips). */
export const PREPARED_TEXTS = 2000;

export interface PreparePolicy {
  /** Whether `text` (with parameters) goes as a named statement. */
  prepares(text: string): boolean;
}

export function preparePolicy(enabled: boolean, limit = PREPARED_TEXTS): PreparePolicy {
  const texts = new Set<string>();
  return {
    prepares(text) {
      if (!enabled) return false;
      if (texts.has(text)) return true;
      if (texts.size >= limit) return false;
      texts.add(text);
      return true;
    },
  };
}

type Unsafe = (query: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;
type Begin = (...args: unknown[]) => unknown;

/**
 * The postgres.js client Drizzle is given: `unsafe` (Drizzle's only way of sending a query) names the
 * statements the policy allows; `begin` and `savepoint` hand their callback a client that does the same.
 */
export function preparing(sql: Sql, policy: PreparePolicy): Sql {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        const unsafe = target.unsafe as unknown as Unsafe;
        return (query: string, params?: unknown[], options?: { prepare?: boolean }) =>
          unsafe(query, params, params && params.length > 0 && policy.prepares(query) ? { ...options, prepare: true } : options);
      }
      if (prop === 'begin' || prop === 'savepoint') {
        const original = Reflect.get(target, prop, receiver) as Begin;
        return (...args: unknown[]) => {
          const fn = args.pop() as (inner: Sql) => unknown;
          return original.call(target, ...args, (inner: Sql) => fn(preparing(inner, policy)));
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}
