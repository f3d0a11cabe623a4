// Prometheus metrics (prom-client), one registry per process: the request and git histograms are fed
// from below (app.ts, git/core.ts) at the cost of one observe() each; /metrics (src/web/operate.ts)
// reads them, and the gauges it fills at scrape time.
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

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
