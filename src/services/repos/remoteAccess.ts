// Which remote addresses migrations and mirrors may reach (Gitea's `[migrations]` ALLOWED_DOMAINS,
// BLOCKED_DOMAINS, ALLOW_LOCALNETWORKS), and reading a Gitea-compatible server's `/api/v1` over the
// address that was checked: the host is resolved once, judged, and every connection (git's and the
// API reader's) goes to that address, so a second DNS answer cannot lead elsewhere.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { MigrationsConfig } from '../../config.js';
import { Invalid } from '../errors.js';
import { addressKind } from '../events/allowList.js';
import { globToRegExp } from '../events/hookOptions.js';
import type { RemoteAccess } from '../../git/remote.js';

export interface RemoteCredentials {
  username?: string;
  password?: string;
  token?: string;
}

export interface CheckedRemote {
  /** The address without user information. */
  url: string;
  host: string;
  port: number;
  /** The checked address every connection goes to. */
  address: string;
  credentials: RemoteCredentials;
}

const globs = (list: string) => list.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean).map(globToRegExp);

/** Parses and judges `raw`; resolves its host once. 422 (Invalid) with Gitea's wording when refused. */
export async function checkRemote(cfg: MigrationsConfig, raw: string, given: RemoteCredentials): Promise<CheckedRemote> {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new Invalid('Invalid clone_addr: it must be an HTTP or HTTPS URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Invalid('Invalid clone_addr: it must be an HTTP or HTTPS URL');
  const credentials: RemoteCredentials = { ...given };
  // The URL parser keeps a `%` that starts no escape (`http://%zz@host/`); decoding it is the client's error.
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new Invalid('Invalid clone_addr: its user name or password is not validly percent-encoded');
    }
  };
  if (u.username && !credentials.username) credentials.username = decoded(u.username);
  if (u.password && !credentials.password) credentials.password = decoded(u.password);
  u.username = '';
  u.password = '';
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const refused = () => new Invalid(`You can not import from disallowed hosts: ${host}`);
  if (globs(cfg.blockedDomains).some((g) => g.test(host))) throw refused();
  const allowed = globs(cfg.allowedDomains);
  if (allowed.length && !allowed.some((g) => g.test(host))) throw refused();
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new Invalid(`Invalid clone_addr: the host ${host} cannot be resolved`);
    }
  }
  const usable = addresses.filter((a) => {
    const kind = addressKind(a);
    if (kind === 'special') return false;
    return kind === 'external' || cfg.allowLocalNetworks;
  });
  if (usable.length === 0) {
    throw new Invalid(`migrate from '${host}' is not allowed: the host resolves to a private or loopback address '${addresses[0] ?? ''}'`);
  }
  return { url: u.toString().replace(/\/$/, ''), host, port, address: usable[0]!, credentials };
}

/** Whether there is anything to send: a user name, a password or a token, any one alone (as Gitea stores a mirror's). */
export const hasCredentials = (c: RemoteCredentials): boolean => Boolean(c.username || c.password || c.token);

/** The Authorization header the credentials make, if any. */
export function authorizationOf(c: RemoteCredentials): string | undefined {
  if (c.token) return `token ${c.token}`;
  if (c.username || c.password) return `Basic ${Buffer.from(`${c.username ?? ''}:${c.password ?? ''}`).toString('base64')}`;
  return undefined;
}

export function gitAccess(r: CheckedRemote, signal?: AbortSignal): RemoteAccess {
  const addr = isIP(r.address) === 6 ? `[${r.address}]` : r.address;
  return { resolve: `${r.host}:${r.port}:${addr}`, authorization: authorizationOf(r.credentials), signal };
}

/** A reader of a Gitea-compatible server's API, connecting only to the checked address. */
export class GiteaApiReader {
  private readonly agent: Agent;

  constructor(
    private readonly remote: CheckedRemote,
    private readonly base: string,
    private readonly signal?: AbortSignal,
  ) {
    this.agent = pinnedAgent(remote.address);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }

  /** GET `path` (below `/api/v1`); 404 answers undefined when `optional`. */
  async get<T>(path: string, optional = false): Promise<T | undefined> {
    const url = `${this.base}/api/v1${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = authorizationOf(this.remote.credentials);
    if (auth) headers.authorization = auth;
    let res;
    try {
      res = await request(url, { method: 'GET', headers, dispatcher: this.agent, signal: this.signal, maxRedirections: 0 } as Parameters<typeof request>[1]);
    } catch (err) {
      throw new Invalid(`the source server could not be read: ${(err as Error).message}`);
    }
    const text = await res.body.text().catch((err: Error) => {
      throw new Invalid(`the source server could not be read: ${err.message}`);
    });
    if (res.statusCode === 404 && optional) return undefined;
    if (res.statusCode === 401 || res.statusCode === 403) throw new Invalid(`the source server refused access to ${path} (${res.statusCode}): check auth_token`);
    if (res.statusCode !== 200) throw new Invalid(`the source server answered ${res.statusCode} for ${path}`);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Invalid(`the source server answered ${path} with something that is not JSON`);
    }
  }

  /**
   * A file of the source (a release asset's download address), streamed. Only on the source's own origin
   * (the checked address, with the source's credentials): an address elsewhere is refused.
   */
  async download(url: string): Promise<Readable> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new Invalid(`the source server named a download address that is not one: ${url}`);
    }
    if (target.origin !== new URL(this.base).origin) throw new Invalid(`the source server named a download address on another host: ${url}`);
    const headers: Record<string, string> = {};
    const auth = authorizationOf(this.remote.credentials);
    if (auth) headers.authorization = auth;
    let res;
    try {
      res = await request(target.toString(), { method: 'GET', headers, dispatcher: this.agent, signal: this.signal, maxRedirections: 0 } as Parameters<typeof request>[1]);
    } catch (err) {
      throw new Invalid(`the source server could not be read: ${(err as Error).message}`);
    }
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => undefined);
      throw new Invalid(`the source server answered ${res.statusCode} for ${target.pathname}`);
    }
    return res.body;
  }

  /**
   * Every page of a list (`page`, `limit`), until an empty page (a server may cap `limit` lower than asked,
   * so a short page is no end), or a page that repeats the one before (a server that ignores `page`).
   */
  async all<T extends { id?: number }>(path: string, limit = 50): Promise<T[]> {
    const out: T[] = [];
    const sep = path.includes('?') ? '&' : '?';
    let previous: number | undefined;
    for (let page = 1; page < 10_000; page++) {
      const items = (await this.get<T[]>(`${path}${sep}page=${page}&limit=${limit}`)) ?? [];
      if (!Array.isArray(items)) throw new Invalid(`the source server answered ${path} with something that is not a list`);
      if (items.length === 0 || (previous !== undefined && items[0]?.id === previous)) break;
      previous = items[0]?.id;
      out.push(...items);
    }
    return out;
  }
}

/** An HTTP agent whose every connection goes to the checked `address`, whatever the host name says. */
export function pinnedAgent(address: string): Agent {
  return new Agent({
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
    connect: {
      timeout: 30_000,
      lookup: (_host: string, opts: { all?: boolean }, cb: (...args: never[]) => void) => {
        const done = cb as unknown as (err: Error | null, a: unknown, f?: number) => void;
        const family = isIP(address) === 6 ? 6 : 4;
        if (opts.all) done(null, [{ address, family }]);
        else done(null, address, family);
      },
    },
  });
}
