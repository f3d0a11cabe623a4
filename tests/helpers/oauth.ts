// OAuth2 test clients: an application registered through the API, a callback server on 127.0.0.1 that
// catches the redirect, the browser steps (sign-in, second factor, consent), the token exchange, TOTP codes.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import * as assert from 'uvu/assert';
import type { TestApp, TestUser } from './harness.js';

export interface Callback {
  url: string;
  /** The next redirect's query (code, state or error). */
  next(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

/** A client's redirect target on 127.0.0.1 that answers a small page and hands over the query. */
export async function callbackServer(): Promise<Callback> {
  const waiting: Array<(q: URLSearchParams) => void> = [];
  const seen: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!DOCTYPE html><title>client</title><p id="done">done</p>');
    const w = waiting.shift();
    if (w) w(q);
    else seen.push(q);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise((r) => (seen.length ? r(seen.shift()!) : waiting.push(r))),
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export interface Application {
  id: number;
  clientId: string;
  clientSecret: string;
}

export async function createApplication(app: TestApp, owner: TestUser & { auth: string }, redirectUris: string[], confidential = true): Promise<Application> {
  const r = await app.client(owner.auth).POST('/user/applications/oauth2', {
    body: { name: `client-${randomBytes(3).toString('hex')}`, redirect_uris: redirectUris, confidential_client: confidential },
  });
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  return { id: r.data!.id, clientId: r.data!.client_id, clientSecret: r.data!.client_secret };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(app: TestApp, clientId: string, redirectUri: string, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', state: randomBytes(6).toString('hex'), ...extra });
  return `${app.url}/login/oauth/authorize?${q}`;
}

/** Fills the sign-in page the browser is on (and the second step when `totpSecret` is given). */
export async function signInOnPage(page: Page, user: TestUser, totpSecret?: string): Promise<void> {
  await page.waitForSelector('main.signin form');
  await page.fill('input[name=user_name]', user.username);
  await page.fill('input[name=password]', user.password);
  await Promise.all([page.waitForLoadState('load'), page.click('main.signin button[type=submit]')]);
  if (totpSecret) {
    await page.waitForSelector('main.two-factor form');
    await page.fill('input[name=passcode]', totpCode(totpSecret));
    await Promise.all([page.waitForLoadState('load'), page.click('main.two-factor button[type=submit]')]);
  }
}

export function totpCode(secret: string, at = Date.now()): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
}

/** POSTs the token endpoint; answers the status and JSON. */
export async function tokenRequest(app: TestApp, form: Record<string, string>, opts: { basic?: [string, string]; json?: boolean } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'Content-Type': opts.json ? 'application/json' : 'application/x-www-form-urlencoded' };
  if (opts.basic) headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(opts.basic[0])}:${encodeURIComponent(opts.basic[1])}`).toString('base64')}`;
  const r = await fetch(`${app.url}/login/oauth/access_token`, { method: 'POST', headers, body: opts.json ? JSON.stringify(form) : new URLSearchParams(form).toString() });
  return { status: r.status, body: (await r.json().catch(() => ({}))) as Record<string, unknown> };
}

/** Enrols a TOTP second factor for `user` directly through the service; answers the secret. */
export async function enrolTotp(app: TestApp, user: TestUser): Promise<string> {
  const { secret } = app.services.twoFactor.proposal(user.username);
  // A passcode of the previous period, so the sign-in's current one is not "already used".
  await app.services.twoFactor.enrol(user.id, user.username, secret, totpCode(secret, Date.now() - 30_000));
  return secret;
}

export interface PrefixProxy {
  /** The proxy's root with the prefix, e.g. http://127.0.0.1:4321/git/ (ROOT_URL of the app behind it). */
  rootUrl: string;
  /** Points the proxy at the app's port (known only once the app started with the proxy's ROOT_URL). */
  target(port: number): void;
  close(): Promise<void>;
}

/** A reverse proxy on 127.0.0.1 serving an app under `/<prefix>/`, stripping the prefix as nginx's `proxy_pass …/` does. */
export async function prefixProxy(prefix: string): Promise<PrefixProxy> {
  let port = 0;
  const server = createServer((req, res) => {
    if (!req.url?.startsWith(`/${prefix}/`)) return void res.writeHead(404).end('outside the prefix');
    const upstream = request({ host: '127.0.0.1', port, method: req.method, path: req.url.slice(prefix.length + 1), headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    rootUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${prefix}/`,
    target: (p) => { port = p; },
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
