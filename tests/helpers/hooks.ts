// A real webhook receiver on loopback, and hook fixtures. The receiver keeps every request (method,
// headers, raw body) and answers with the statuses it is told, or is closed (connection refused).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';

export type Hook = components['schemas']['Hook'];
export type HookDelivery = components['schemas']['HookDelivery'];

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Statuses for the next answers, in order; 200 once they are used up. */
  answer(...statuses: number[]): void;
  /** Requests whose X-Gitea-Event-Type is `type`. */
  of(type: string): Received[];
  close(): Promise<void>;
  /** Listens again on the same port (after close). */
  reopen(): Promise<void>;
}

export async function receiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let queue: number[] = [];
  let server: Server;
  const listen = (p: number) =>
    new Promise<number>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.statusCode = queue.shift() ?? 200;
          res.end('thanks');
        });
      });
      server.listen(p, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const actual = await listen(port);
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    received,
    answer: (...s) => void (queue = s),
    of: (type) => received.filter((r) => r.headers['x-gitea-event-type'] === type),
    close: () => new Promise<void>((res) => { server.closeAllConnections(); server.close(() => res()); }),
    reopen: async () => void (await listen(actual)),
  };
}

/** Polls `check` until it returns a value (not undefined/false), at most `ms`; no fixed sleeps. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) assert.unreachable(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Settings for an app whose worker delivers to loopback quickly (the default allow list refuses 127.0.0.1). */
export const fastHooks = { WEBHOOK_ALLOWED_HOST_LIST: 'loopback', WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_POLL_INTERVAL_MS: '30', WEBHOOK_DELIVER_TIMEOUT: '3' };

type Body = components['schemas']['CreateHookOption'];

/** An active gitea hook to `url` (JSON); `over.config` keys are added to url and content_type. */
export const hookBody = (url: string, over: Partial<Body> = {}): Body => {
  const { config, ...rest } = over;
  return { type: 'gitea', active: true, ...rest, config: { ...config, url: config?.url ?? url, content_type: config?.content_type ?? 'json' } };
};

export async function repoHook(app: TestApp, auth: string, path: { owner: string; repo: string }, body: Body): Promise<Hook> {
  const r = await app.client(auth).POST('/repos/{owner}/{repo}/hooks', { params: { path }, body });
  assert.is(r.response.status, 201, `create hook: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function orgHook(app: TestApp, auth: string, org: string, body: Body): Promise<Hook> {
  const r = await app.client(auth).POST('/orgs/{org}/hooks', { params: { path: { org } }, body });
  assert.is(r.response.status, 201, `create org hook: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function adminHook(app: TestApp, auth: string, body: Body): Promise<Hook> {
  const r = await app.client(auth).POST('/admin/hooks', { body });
  assert.is(r.response.status, 201, `create admin hook: ${JSON.stringify(r.error)}`);
  return r.data!;
}
