// Prometheus metrics (prom-client), one registry per process: the request and git histograms are fed
// from below (app.ts, git/core.ts) at the cost of one observe() each; /metrics (src/web/operate.ts)
// reads them, and the gauges it fills at scrape time.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();

/** Seconds; the same buckets for requests and git commands (most answer in milliseconds, clones take seconds). */
const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Labelled by the spec's operationId (`unmatched` for anything else) and the status: a bounded set. */
export const requestDuration = new Histogram({
  name: 'anvil_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer, by operationId and status.',
  labelNames: ['operation', 'status'] as const,
  buckets,
  registers: [registry],
});

/** Labelled by the git verb (rev-parse, upload-pack, ...): the commands src/git runs, a fixed set. */
export const gitDuration = new Histogram({
  name: 'anvil_git_command_duration_seconds',
  help: 'Time one git command ran, by git verb.',
  labelNames: ['command'] as const,
  buckets,
  registers: [registry],
});

/** Seconds; queries mostly answer in well under a millisecond on a warm database. */
const queryBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Labelled by engine and statement kind (`select|insert|update|delete|other`), never by the SQL text. */
export const dbQueryDuration = new Histogram({
  name: 'anvil_db_query_duration_seconds',
  help: 'Time one database query took, from sending it to its rows, by engine and statement kind.',
  labelNames: ['engine', 'statement'] as const,
  buckets: queryBuckets,
  registers: [registry],
});

export const dbPoolMax = new Gauge({
  name: 'anvil_db_pool_max_connections',
  help: 'Connections the database pool may open (PGlite: 1).',
  labelNames: ['engine'] as const,
  registers: [registry],
});

/** Queries sent and not yet answered, counted by src/db/queryMetrics.ts, read at scrape time. */
export const dbInFlight = { pglite: 0, postgres: 0 };

/** Connections in use, as near as can be known cheaply: the queries waiting for their answer. */
export const dbQueriesInFlight = new Gauge({
  name: 'anvil_db_queries_in_flight',
  help: 'Database queries sent and not yet answered (at most the pool size run at once; the rest wait for a connection).',
  labelNames: ['engine'] as const,
  registers: [registry],
  collect() {
    this.set({ engine: 'pglite' }, dbInFlight.pglite);
    this.set({ engine: 'postgres' }, dbInFlight.postgres);
  },
});

export const webhookQueueDepth = new Gauge({
  name: 'anvil_webhook_deliveries_pending',
  help: 'Webhook deliveries waiting to be delivered (first attempt or a retry).',
  registers: [registry],
});

export const webhookOldestPendingAge = new Gauge({
  name: 'anvil_webhook_oldest_pending_age_seconds',
  help: 'Age of the oldest webhook delivery still pending (0 when none is).',
  registers: [registry],
});

/** Issues created (not pull requests), by how they were written: `statement` (one statement, services/issues/createAlone.ts) or `transaction`. */
export const issuesCreated = new Counter({
  name: 'anvil_issues_created_total',
  help: 'Issues created, by how they were written: in one statement or in a transaction.',
  labelNames: ['way'] as const,
  registers: [registry],
});

let defaults = false;
/** Process metrics (CPU, memory, event loop lag, handles): only in a process that serves /metrics. */
export function collectProcessMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: registry });
}

/** The git verb of an argument list: the first plain word (`-c key=value` and other options skipped). */
export function gitVerb(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-C') {
      i++;
      continue;
    }
    if (/^[a-z][a-z0-9-]*$/.test(a)) return a;
  }
  return 'other';
}
