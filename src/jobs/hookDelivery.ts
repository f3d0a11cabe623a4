// The webhook delivery worker. It claims due deliveries with FOR UPDATE SKIP LOCKED and a lease (several
// processes may run it; a delivery whose worker died is taken again when its lease ends), sends each with
// no transaction open, and records the attempt and the outcome together: delivered (2xx), retried with
// exponential backoff (no answer, 408, 429, 5xx) until the retry window closes, failed (any other answer),
// or blocked (the allow list forbids the address; never retried).
import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { hookAttempts, hookDeliveries, hooks, type HookDeliveryRow, type HookRow } from '../db/schema/index.js';
import { withTx } from '../db/tx.js';
import type { ServiceDeps } from '../services/context.js';
import { parseAllowList, type AllowList } from '../services/events/allowList.js';
import { deliveryQueued } from '../services/events/hookFanOut.js';
import { PollingWorker } from './pollingWorker.js';
import { maskSecrets } from '../log.js';

class Blocked extends Error {}

const batchSize = 10;
const excerptBytes = 4096;

/** The delay before retry number `n` (1-based): base · 2^(n-1), at most `max`. */
export function backoff(n: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(n - 1, 40));
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

export function signatures(secret: string, body: string): { sha1: string; sha256: string } {
  if (!secret) return { sha1: '', sha256: '' };
  return { sha1: createHmac('sha1', secret).update(body).digest('hex'), sha256: createHmac('sha256', secret).update(body).digest('hex') };
}

/** Gitea's delivery headers (and their Gogs and GitHub twins). */
export function deliveryHeaders(hook: HookRow, d: HookDeliveryRow): Record<string, string> {
  const sig = signatures(hook.secret, d.payload);
  const h: Record<string, string> = {
    'Content-Type': hook.contentType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    'User-Agent': 'anvil-webhook',
    'X-Gitea-Delivery': d.guid, 'X-Gitea-Event': d.event, 'X-Gitea-Event-Type': d.eventType, 'X-Gitea-Signature': sig.sha256,
    'X-Gogs-Delivery': d.guid, 'X-Gogs-Event': d.event, 'X-Gogs-Event-Type': d.eventType, 'X-Gogs-Signature': sig.sha256,
    'X-GitHub-Delivery': d.guid, 'X-GitHub-Event': d.event, 'X-GitHub-Event-Type': d.eventType,
    'X-Hub-Signature': sig.sha1 ? `sha1=${sig.sha1}` : '', 'X-Hub-Signature-256': sig.sha256 ? `sha256=${sig.sha256}` : '',
  };
  if (hook.authorizationHeader) h.Authorization = hook.authorizationHeader;
  return h;
}

const masked = (headers: Record<string, string>) => (headers.Authorization ? { ...headers, Authorization: '(hidden)' } : headers);

export class HookDeliveryWorker extends PollingWorker {
  private readonly allow: AllowList;
  private readonly agent: Agent;

  constructor(private readonly deps: ServiceDeps) {
    super(deps.log.child({ worker: 'webhooks' }), deliveryQueued, () => deps.config.webhook.pollIntervalMs, batchSize);
    const cfg = deps.config.webhook;
    this.allow = parseAllowList(cfg.allowedHostList);
    this.agent = new Agent({
      headersTimeout: cfg.deliverTimeoutMs,
      bodyTimeout: cfg.deliverTimeoutMs,
      connect: { timeout: cfg.deliverTimeoutMs, lookup: this.lookup },
    });
  }

  /** DNS resolution that keeps only the addresses the allow list permits: the connection goes to one of those. */
  private readonly lookup = (hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: never[]) => void) => {
    const cb = callback as unknown as (err: Error | null, address?: string | LookupAddress[], family?: number) => void;
    const family = options.family === 'IPv6' || options.family === 6 ? 6 : options.family === 'IPv4' || options.family === 4 ? 4 : 0;
    dnsLookup(hostname, { all: true, family }, (err, addresses) => {
      if (err) return cb(err);
      const allowed = addresses.filter((a) => this.allow.allows(hostname, a.address));
      if (allowed.length === 0) return cb(new Blocked(`${hostname} resolves to ${addresses.map((a) => a.address).join(', ')}, which WEBHOOK_ALLOWED_HOST_LIST does not allow`));
      if (options.all) return cb(null, allowed);
      cb(null, allowed[0]!.address, allowed[0]!.family);
    });
  };

  override async stop(): Promise<void> {
    await super.stop();
    await this.agent.close().catch(() => undefined);
  }

  /** Claims and sends one batch of due deliveries; answers how many it took. */
  async runOnce(): Promise<number> {
    const { db, config } = this.deps;
    const now = new Date();
    const due = db
      .select({ id: hookDeliveries.id })
      .from(hookDeliveries)
      .where(and(eq(hookDeliveries.state, 'pending'), lte(hookDeliveries.dueAt, now), or(isNull(hookDeliveries.leaseUntil), lt(hookDeliveries.leaseUntil, now))))
      .orderBy(asc(hookDeliveries.dueAt), asc(hookDeliveries.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(hookDeliveries)
      .set({ leaseUntil: new Date(now.getTime() + config.webhook.leaseMs), attempts: sql`${hookDeliveries.attempts} + 1` })
      .where(inArray(hookDeliveries.id, due))
      .returning();
    if (claimed.length === 0) return 0;
    const hookRows = await db.select().from(hooks).where(inArray(hooks.id, [...new Set(claimed.map((d) => d.hookId))]));
    const byId = new Map(hookRows.map((h) => [h.id, h]));
    // Hooks are sent to at once; each hook's deliveries one after the other, in the order they were
    // recorded (due time, then id), so one receiver sees a run's `queued` before its `in_progress`.
    const perHook = new Map<number, HookDeliveryRow[]>();
    for (const d of claimed.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.id - b.id)) {
      if (!byId.has(d.hookId)) continue;
      const list = perHook.get(d.hookId);
      if (list) list.push(d);
      else perHook.set(d.hookId, [d]);
    }
    await Promise.all([...perHook].map(async ([hookId, list]) => {
      for (const d of list) await this.send(byId.get(hookId)!, d);
    }));
    return claimed.length;
  }

  private async send(hook: HookRow, d: HookDeliveryRow): Promise<void> {
    const cfg = this.deps.config.webhook;
    const headers = deliveryHeaders(hook, d);
    const started = new Date();
    let status: number | undefined;
    let responseHeaders: Record<string, string> | undefined;
    let responseBody: string | undefined;
    let error: string | undefined;
    let blocked = false;
    try {
      const url = new URL(hook.url);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // An address in the URL is never looked up: check it here.
      if (isIP(host) && !this.allow.allows(host, host)) throw new Blocked(`${host} is not allowed by WEBHOOK_ALLOWED_HOST_LIST`);
      const res = await request(url, {
        method: hook.httpMethod as 'POST', headers, body: d.payload, dispatcher: this.agent, signal: AbortSignal.timeout(cfg.deliverTimeoutMs),
      });
      status = res.statusCode;
      responseHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
      responseBody = await readExcerpt(res.body);
    } catch (err) {
      const e = err as Error & { cause?: Error };
      blocked = e instanceof Blocked || e.cause instanceof Blocked;
      // Kept with the attempt and shown to the hook's administrators: a URL in it loses its credentials.
      error = maskSecrets(blocked ? (e instanceof Blocked ? e.message : e.cause!.message) : `${e.name}: ${e.message}${e.cause ? ` (${e.cause.message})` : ''}`);
    }
    const finished = new Date();
    const ok = status !== undefined && status >= 200 && status < 300;
    const again = !ok && !blocked && (status === undefined || retryable(status)) && finished.getTime() - d.createdAt.getTime() < cfg.retryWindowMs;
    const state = ok ? 'delivered' : blocked ? 'blocked' : again ? 'pending' : 'failed';
    await withTx(this.deps.db, async (tx) => {
      await tx.insert(hookAttempts).values({
        deliveryId: d.id, startedAt: started, durationMs: finished.getTime() - started.getTime(), url: hook.url, requestHeaders: masked(headers),
        responseStatus: status ?? null, responseHeaders: responseHeaders ?? null, responseBody: responseBody ?? null, error: error ?? null,
      });
      await tx
        .update(hookDeliveries)
        .set({
          state,
          lastStatus: status ?? null,
          leaseUntil: null,
          dueAt: again ? new Date(finished.getTime() + backoff(d.attempts, cfg.retryBaseMs, cfg.retryMaxMs)) : d.dueAt,
          finishedAt: state === 'pending' ? null : finished,
        })
        .where(eq(hookDeliveries.id, d.id));
    });
    if (!ok) this.log.info({ hookId: hook.id, delivery: d.guid, status, error, state }, 'webhook delivery not accepted');
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy?: () => void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < excerptBytes) chunks.push(chunk);
    size += chunk.length;
    if (size >= excerptBytes) break;
  }
  body.destroy?.();
  return Buffer.concat(chunks).subarray(0, excerptBytes).toString('utf8');
}
