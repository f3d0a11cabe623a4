// Git LFS objects of migrated repositories and pull mirrors (#39, #40), as Gitea 1.26 brings them
// (StoreMissingLfsObjectsInRepository): every LFS pointer the fetched refs reach is looked up in the
// source's LFS batch API (download) and each object the repository does not hold yet is streamed into the
// `lfs` store, its size and sha256 checked as it arrives. The endpoint is `lfs_endpoint`, else the clone
// address + `/info/lfs` (Gitea's DetermineEndpoint); it passes the migrations' allow/block list, and so does
// every download address the source names, each reached at its checked address only.
//
// As in Gitea: an object the source answers 404 for is skipped (its pointer stays, logged); one larger than
// LFS_MAX_FILE_SIZE is skipped (logged); any other failure of an object fails the whole fetch. Objects are
// written to the store before any record is made, with no transaction open; the store is shared and
// content-addressed (one copy per oid), so an object whose record never comes is not removed here (another
// repository may record the same oid meanwhile) but left to `gc_lfs`, which removes unrecorded objects
// older than an hour.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { type Agent, request } from 'undici';
import type { MigrationsConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { lfsMetaObjects } from '../../db/schema/index.js';
import { reachablePointers } from '../../git/lfsScan.js';
import { storeFor, type BlobStore } from '../../storage/index.js';
import { lfsKey } from '../../storage/lfsObjects.js';
import type { ServiceDeps } from '../context.js';
import { Invalid } from '../errors.js';
import { authorizationOf, checkRemote, pinnedAgent, type CheckedRemote } from './remoteAccess.js';

export interface LfsObject {
  oid: string;
  size: number;
}

/** Gitea's LFS_CLIENT BATCH_SIZE default: objects asked for in one batch request. */
const batchSize = 20;
/**
 * The most a batch answer (for `batchSize` objects) may be: each object's download address and headers are
 * well under a kilobyte; a source answering more is hostile or broken and fails the migration with a 422.
 */
export const maxBatchAnswerBytes = 1024 * 1024;
const lfsJson = 'application/vnd.git-lfs+json';

/** Gitea's DetermineEndpoint: the given LFS address, else the clone address with `.git/info/lfs` (or `/info/lfs` after `.git`). */
export function lfsEndpointOf(cloneUrl: string, custom?: string): string {
  if (custom) return custom.trim().replace(/\/+$/, '');
  const u = new URL(cloneUrl);
  u.pathname = u.pathname.replace(/\/+$/, '');
  u.pathname += u.pathname.endsWith('.git') ? '/info/lfs' : '.git/info/lfs';
  return u.toString();
}

/**
 * The LFS endpoint of a migration or mirror whose clone address was checked as `clone`, judged by the
 * allow/block list (422 when refused). The clone address's credentials go with it when it is on the clone
 * address's origin (the derived endpoint always is); an endpoint elsewhere gets only the user information
 * in its own address.
 */
export async function checkLfsEndpoint(cfg: MigrationsConfig, clone: CheckedRemote, custom?: string): Promise<CheckedRemote> {
  const url = lfsEndpointOf(clone.url, custom);
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    throw new Invalid('Invalid lfs_endpoint: it must be an HTTP or HTTPS URL');
  }
  const same = origin === new URL(clone.url).origin;
  try {
    return await checkRemote(cfg, url, same ? clone.credentials : {});
  } catch (err) {
    if (err instanceof Invalid) throw new Invalid(err.message.replace('clone_addr', 'lfs_endpoint'));
    throw err;
  }
}

interface BatchAnswerObject {
  oid?: unknown;
  size?: unknown;
  error?: { code?: unknown; message?: unknown };
  actions?: { download?: { href?: unknown; header?: unknown } };
  _links?: { download?: { href?: unknown; header?: unknown } };
}

/** One source's LFS server, over checked addresses only. */
class LfsClient {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly cfg: MigrationsConfig,
    private readonly endpoint: CheckedRemote,
    private readonly signal?: AbortSignal,
  ) {
    this.agents.set(new URL(endpoint.url).origin, pinnedAgent(endpoint.address));
  }

  async close(): Promise<void> {
    for (const a of this.agents.values()) await a.close().catch(() => undefined);
  }

  private async send(url: string, init: { method: string; headers: Record<string, string>; body?: string }) {
    const target = new URL(url);
    let agent = this.agents.get(target.origin);
    const own = target.origin === new URL(this.endpoint.url).origin;
    if (!agent) {
      // A download address elsewhere (object storage's presigned URL): judged like the clone address.
      const checked = await checkRemote(this.cfg, url, {}).catch((err: Error) => {
        throw new Invalid(`the source's LFS server named a download address that may not be reached: ${err.message.replace('clone_addr', 'address')}`);
      });
      agent = pinnedAgent(checked.address);
      this.agents.set(target.origin, agent);
    }
    const headers = { ...init.headers };
    const auth = own ? authorizationOf(this.endpoint.credentials) : undefined;
    if (auth && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) headers.authorization = auth;
    target.username = '';
    target.password = '';
    try {
      return await request(target.toString(), { ...init, headers, dispatcher: agent, signal: this.signal, maxRedirections: 0 } as Parameters<typeof request>[1]);
    } catch (err) {
      throw new Invalid(`the source's LFS server could not be read: ${(err as Error).message}`);
    }
  }

  /** The batch API's download answer for `objects`, by oid. */
  async batch(objects: LfsObject[]): Promise<Map<string, BatchAnswerObject>> {
    const res = await this.send(`${this.endpoint.url}/objects/batch`, {
      method: 'POST',
      headers: { accept: lfsJson, 'content-type': lfsJson },
      body: JSON.stringify({ operation: 'download', transfers: ['basic'], objects, hash_algo: 'sha256' }),
    });
    const text = await readCapped(res.body as unknown as Readable, maxBatchAnswerBytes).catch((err: Error) => {
      throw err instanceof Invalid ? err : new Invalid(`the source's LFS server could not be read: ${err.message}`);
    });
    if (res.statusCode === 401 || res.statusCode === 403) throw new Invalid(`the source's LFS server refused access (${res.statusCode}): check auth_token`);
    if (res.statusCode !== 200) throw new Invalid(`the source's LFS server at ${this.endpoint.url} answered ${res.statusCode} to a batch request`);
    let answer: { objects?: unknown };
    try {
      answer = JSON.parse(text) as { objects?: unknown };
    } catch {
      throw new Invalid('the source\'s LFS server answered a batch request with something that is not JSON');
    }
    if (!Array.isArray(answer.objects)) throw new Invalid('the source\'s LFS server answered a batch request without objects');
    const out = new Map<string, BatchAnswerObject>();
    for (const o of answer.objects as BatchAnswerObject[]) if (o && typeof o.oid === 'string') out.set(o.oid, o);
    return out;
  }

  /** Streams the object at `href` into `store`, refused unless it is exactly `size` bytes hashing to `oid`. */
  async download(store: BlobStore, o: LfsObject, href: string, header: Record<string, string>): Promise<void> {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      throw new Invalid(`the source's LFS server named a download address for object ${o.oid} that is not one`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Invalid(`the source's LFS server named a download address for object ${o.oid} that is not HTTP(S)`);
    const res = await this.send(url.toString(), { method: 'GET', headers: header });
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => undefined);
      throw new Invalid(`the source's LFS server answered ${res.statusCode} for object ${o.oid}`);
    }
    const body = res.body as unknown as Readable;
    const hash = createHash('sha256');
    let seen = 0;
    await store.put(lfsKey(o.oid), body, {
      chunk: (c) => {
        seen += c.length;
        if (seen > o.size) throw new Invalid(`the LFS object ${o.oid} from the source is larger than its ${o.size} bytes`);
        hash.update(c);
      },
      end: () => {
        if (seen !== o.size) throw new Invalid(`the LFS object ${o.oid} arrived with ${seen} bytes, not ${o.size}`);
        if (hash.digest('hex') !== o.oid) throw new Invalid(`the LFS object ${o.oid} from the source does not match its oid`);
      },
    }).catch((err: Error) => {
      body.destroy();
      throw err instanceof Invalid ? err : new Invalid(`the LFS object ${o.oid} could not be read from the source: ${err.message}`);
    });
  }
}

const headerOf = (h: unknown): Record<string, string> =>
  h && typeof h === 'object' ? Object.fromEntries(Object.entries(h as Record<string, unknown>).filter(([, v]) => typeof v === 'string') as Array<[string, string]>) : {};

export interface LfsFetchResult {
  /** Objects now in the store, to be recorded for the repository. */
  stored: LfsObject[];
  /** Oids the source does not have (its pointers stay as they are). */
  missing: string[];
  /** Oids larger than LFS_MAX_FILE_SIZE, not brought. */
  tooLarge: string[];
}

export class LfsFetcher {
  readonly store: BlobStore;

  constructor(private readonly deps: ServiceDeps) {
    this.store = storeFor(deps.config, 'lfs');
  }

  /**
   * The objects of every pointer the refs of the bare repository `dir` reach, except those in `known`,
   * from `endpoint` into the store. `onStored` runs after each object is in the store (a mirror records it
   * at once). Any failure but a missing object throws (422), with the objects stored so far kept for `gc_lfs`.
   */
  async fetch(dir: string, endpoint: CheckedRemote, opts: { known?: Set<string>; onStored?: (o: LfsObject) => Promise<void>; signal?: AbortSignal; what?: string } = {}): Promise<LfsFetchResult> {
    const { config, log } = this.deps;
    const result: LfsFetchResult = { stored: [], missing: [], tooLarge: [] };
    const max = config.lfs.maxFileSize;
    const wanted: LfsObject[] = [];
    for (const p of await reachablePointers(dir)) {
      if (opts.known?.has(p.oid)) continue;
      if (max > 0 && p.size > max) {
        log.info({ what: opts.what, oid: p.oid, size: p.size, max }, 'LFS object not brought: larger than LFS_MAX_FILE_SIZE');
        result.tooLarge.push(p.oid);
      } else wanted.push(p);
    }
    if (wanted.length === 0) return result;
    const client = new LfsClient(config.migrations, endpoint, opts.signal);
    try {
      for (let i = 0; i < wanted.length; i += batchSize) {
        const batch = wanted.slice(i, i + batchSize);
        const answers = await client.batch(batch);
        for (const o of batch) {
          const a = answers.get(o.oid);
          if (!a) throw new Invalid(`the source's LFS server did not answer for object ${o.oid}`);
          if (a.error) {
            if (a.error.code === 404) {
              log.warn({ what: opts.what, oid: o.oid }, 'LFS object missing at the source: its pointer stays');
              result.missing.push(o.oid);
              continue;
            }
            throw new Invalid(`the source's LFS server refused object ${o.oid}: ${String(a.error.code)} ${typeof a.error.message === 'string' ? a.error.message : ''}`.trim());
          }
          const action = a.actions?.download ?? a._links?.download;
          if (!action || typeof action.href !== 'string') throw new Invalid(`the source's LFS server gave no download for object ${o.oid}`);
          await client.download(this.store, o, action.href, headerOf(action.header));
          result.stored.push(o);
          await opts.onStored?.(o);
        }
      }
    } finally {
      await client.close();
    }
    return result;
  }

  /** The oids `repoId` records. */
  async known(repoId: number): Promise<Set<string>> {
    const rows = await this.deps.db.select({ oid: lfsMetaObjects.oid }).from(lfsMetaObjects).where(eq(lfsMetaObjects.repoId, repoId));
    return new Set(rows.map((r) => r.oid));
  }

  /** Records `objects` for `repoId` (in the caller's transaction for a migration). */
  static async record(tx: Db, repoId: number, objects: LfsObject[]): Promise<void> {
    for (let i = 0; i < objects.length; i += 500) {
      const part = objects.slice(i, i + 500);
      await tx.insert(lfsMetaObjects).values(part.map((o) => ({ repoId, oid: o.oid, size: o.size }))).onConflictDoNothing();
    }
  }

  /**
   * A pull mirror's sync (after its fetch, with no transaction open): the objects it lacks, each recorded
   * as it is stored. Failures are logged, not the sync's (Gitea's), and the next sync tries again.
   */
  async syncMirror(repoId: number, dir: string, remote: CheckedRemote, lfsEndpoint: string): Promise<LfsFetchResult | undefined> {
    try {
      const endpoint = await checkLfsEndpoint(this.deps.config.migrations, remote, lfsEndpoint || undefined);
      return await this.fetch(dir, endpoint, {
        known: await this.known(repoId), what: `mirror ${repoId}`,
        onStored: (o) => LfsFetcher.record(this.deps.db, repoId, [o]),
      });
    } catch (err) {
      this.deps.log.warn({ repoId, err: (err as Error).message }, 'mirror sync: LFS objects not synchronized');
      return undefined;
    }
  }
}

/** A body as text, refused (and no longer read) once it is longer than `max` bytes. */
async function readCapped(body: Readable, max: number): Promise<string> {
  const parts: Buffer[] = [];
  let seen = 0;
  for await (const chunk of body) {
    seen += (chunk as Buffer).length;
    if (seen > max) {
      body.destroy();
      throw new Invalid(`the source's LFS server answered a batch request with more than ${max} bytes`);
    }
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}
