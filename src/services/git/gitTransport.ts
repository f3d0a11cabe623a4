// git over HTTP: who may fetch from or push to a repository (the API's permission model, read or write
// on the code unit), and what a push changes in the repository's row.
import type { Readable } from 'node:stream';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { pendingPushes, repositories, users, type UserRow } from '../../db/schema/index.js';
import { processAlive } from '../../db/lock.js';
import { zeroId } from '../../git/commit.js';
import { listRefTips, refChanges } from '../../git/pushLog.js';
import { repoDir, wikiDir } from '../../git/paths.js';
import { listBranches, setHead } from '../../git/refs.js';
import { hooksDir } from '../../git/preReceive.js';
import { advertiseRefs, servePack, serviceRpc, type GitService } from '../../git/smartHttp.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import type { BranchService } from './branches.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound, Unauthorized } from '../errors.js';
import type { LoadedRepo, RepoService } from '../repos/repos.js';
import type { WikiService } from '../repos/wiki.js';
import { existsSync } from 'node:fs';
import type { KeyService } from '../keys/keys.js';
import { scopesAllow } from '../users/tokens.js';

/** Who an SSH key signs in as: a user key's user, or a deploy key (the repository decides). */
export type KeyHolder = { kind: 'user'; user: UserRow } | { kind: 'deploy'; keyId: number };

/** An SSH session's streams. */
export interface PackStreams {
  input: Readable;
  output: NodeJS.WritableStream;
  errors: NodeJS.WritableStream;
}

export interface TransportCaller {
  actor: UserRow | null;
  /** A token's scopes; undefined when the caller signed in with a password or not at all. */
  tokenScopes?: readonly string[];
}

export interface TransportStream {
  /** The client's `Git-Protocol` header. */
  gitProtocol?: string;
  /** Failures after the answer has begun, for the log. */
  onError?: (err: Error) => void;
}

const isPush = (service: GitService) => service === 'git-receive-pack';

/** A repository's code, or its wiki (`<repo>.wiki.git`): what a git transport request reaches. */
export type TransportTarget = LoadedRepo & { wiki?: boolean };

/** `<name>.wiki` names the wiki of `<name>` (no repository name ends with `.wiki`). */
function splitWiki(name: string): { name: string; wiki: boolean } {
  return /\.wiki$/i.test(name) ? { name: name.slice(0, -'.wiki'.length), wiki: true } : { name, wiki: false };
}

export class GitTransportService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly repos: RepoService,
    private readonly branches: BranchService,
    private readonly keys: KeyService,
    private readonly wikis: WikiService,
  ) {}

  /**
   * A wiki that has no git repository yet: fetching it is "not found"; the first push makes it, as the
   * first page made through the API does.
   */
  private async wikiReady(target: TransportTarget, service: GitService): Promise<TransportTarget> {
    if (!target.wiki || existsSync(this.dir(target))) return target;
    if (!isPush(service)) throw new NotFound('Repository not found');
    await this.wikis.ensureRepo(target);
    return target;
  }

  /**
   * git over SSH: a user key acts as its user (the same checks as over HTTP); a deploy key reaches its
   * own repository alone (others are "not found") and pushes only when it is not read-only. A deploy
   * key's push is recorded as the repository owner's.
   */
  async openForKey(ownerName: string, name: string, holder: KeyHolder, service: GitService): Promise<{ loaded: TransportTarget; pusher: UserRow; deployKey: boolean }> {
    if (holder.kind === 'user') {
      const loaded = await this.open(ownerName, name, { actor: holder.user }, service);
      return { loaded, pusher: holder.user, deployKey: false };
    }
    const { name: repoName, wiki } = splitWiki(name);
    const site = await this.repos.load(ownerName, repoName, null, { ignoreVisibility: true }).catch((err: unknown) => {
      if (err instanceof NotFound) return undefined;
      throw err;
    });
    const deploy = site ? await this.keys.deployKeyOf(holder.keyId, site.repo.id) : undefined;
    if (!site || !deploy) throw new NotFound('Repository not found');
    if (isPush(service)) {
      if (deploy.readOnly) throw new Forbidden('This deploy key is read-only: it may fetch but not push');
      if (site.repo.isArchived) throw new Forbidden('This repository is archived: it can be cloned but not pushed to');
      if (site.repo.isMirror && !wiki) throw new Forbidden('This repository is a mirror: it cannot be pushed to');
    }
    return { loaded: await this.wikiReady({ ...site, wiki }, service), pusher: site.owner, deployKey: true };
  }

  /** A running Actions task's checkout: its own repository, fetch only. */
  async openForTask(ownerName: string, name: string, taskRepoId: number, service: GitService): Promise<LoadedRepo> {
    const site = await this.repos.load(ownerName, name, null, { ignoreVisibility: true }).catch((err: unknown) => {
      if (err instanceof NotFound) return undefined;
      throw err;
    });
    if (!site || site.repo.id !== taskRepoId) throw new NotFound('Repository not found');
    if (isPush(service)) throw new Forbidden('An Actions task token may fetch but not push');
    return site;
  }

  /** Serves one SSH exec of upload-pack or receive-pack; a push is announced and recorded as over HTTP. Resolves with git's exit code. */
  async servePack(loaded: TransportTarget, service: GitService, io: PackStreams, pusher: UserRow, stream: TransportStream = {}, deployKey = false): Promise<number> {
    const dir = this.dir(loaded);
    // A wiki push changes pages only: no branch events, no pull requests to refresh.
    if (!isPush(service) || loaded.wiki) return servePack(dir, service, io, stream);
    const hooks = await this.protectionHooks(loaded, pusher, deployKey);
    const { before, pendingId } = await this.announcePush(loaded, pusher);
    return servePack(dir, service, io, { ...stream, hooks, afterExit: () => this.afterPush(loaded, pusher.id, before, pendingId) });
  }

  /** The pre-receive hook with this pusher's rules for the repository's protected branches (none: no hook). */
  private async protectionHooks(loaded: LoadedRepo, pusher: UserRow, deployKey: boolean) {
    const rules = await this.branches.protections.pushRules(loaded, pusher, deployKey);
    return rules ? { path: hooksDir(this.deps.config.dataDir), env: { ANVIL_BRANCH_RULES: rules } } : undefined;
  }

  private async announcePush(loaded: LoadedRepo, actor: UserRow): Promise<{ before: Map<string, string>; pendingId: number }> {
    const before = await listRefTips(this.dir(loaded));
    const [pending] = await this.deps.db
      .insert(pendingPushes)
      .values({ repoId: loaded.repo.id, actorId: actor.id, before: Object.fromEntries(before), holder: holderId() })
      .returning({ id: pendingPushes.id });
    return { before, pendingId: pending!.id };
  }

  /**
   * The repository, if the caller may run `service` on it. Anonymous callers get Unauthorized (so git
   * asks for credentials) for anything beyond fetching a repository anyone may read, existing or not;
   * signed-in callers get NotFound for what they may not see and Forbidden for pushes they may not make.
   */
  async open(ownerName: string, name: string, caller: TransportCaller, service: GitService): Promise<TransportTarget> {
    const push = isPush(service);
    const { name: repoName, wiki } = splitWiki(name);
    const unit = wiki ? 'repo.wiki' : 'repo.code';
    const loaded = await this.repos.load(ownerName, repoName, caller.actor).catch((err: unknown) => {
      if (err instanceof NotFound) return undefined;
      throw err;
    });
    const readable = !!loaded && canRead(loaded.perm, unit);
    if (!caller.actor) {
      if (!readable || push) throw new Unauthorized('Authentication required');
      return this.wikiReady({ ...loaded!, wiki }, service);
    }
    if (!readable) throw new NotFound('Repository not found');
    if (caller.tokenScopes && !scopesAllow(caller.tokenScopes, 'repository', push)) {
      throw new Forbidden(`token does not have at least one of required scope(s): [${push ? 'write' : 'read'}:repository]`);
    }
    if (push) {
      if (!canWrite(loaded!.perm, unit)) throw new Forbidden(`User permission denied: you may not push to this ${wiki ? 'wiki' : 'repository'}`);
      if (loaded!.repo.isArchived) throw new Forbidden('This repository is archived: it can be cloned but not pushed to');
      if (loaded!.repo.isMirror && !wiki) throw new Forbidden('This repository is a mirror: it cannot be pushed to');
    }
    return this.wikiReady({ ...loaded!, wiki }, service);
  }

  /** The ref advertisement for `GET info/refs?service=…`. */
  advertise(loaded: TransportTarget, service: GitService, stream: TransportStream = {}): Readable {
    return advertiseRefs(this.dir(loaded), service, stream);
  }

  /**
   * Runs `service` on the request body. A push is announced first (a pending-push row with the refs as
   * they were), so that what it changed is recorded even if this process dies once git has moved them:
   * the client's answer ends only after the events are recorded, and a row left behind is reconciled.
   */
  async rpc(loaded: TransportTarget, service: GitService, input: Readable, stream: TransportStream = {}, actor?: UserRow | null): Promise<Readable> {
    const dir = this.dir(loaded);
    if (!isPush(service) || !actor || loaded.wiki) return serviceRpc(dir, service, input, stream);
    const hooks = await this.protectionHooks(loaded, actor, false);
    const { before, pendingId } = await this.announcePush(loaded, actor);
    return serviceRpc(dir, service, input, { ...stream, hooks, afterExit: () => this.afterPush(loaded, actor.id, before, pendingId) });
  }

  /**
   * Records what the push changed and brings the row in step with git. A push that leaves HEAD on a
   * missing branch (the first push into an empty repository) makes the configured default branch, if
   * pushed, or else the first new branch the default.
   */
  private async afterPush(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, actorId: number, before: Map<string, string>, pendingId: number): Promise<void> {
    const dir = this.dir(loaded);
    const after = await listRefTips(dir);
    const changes = refChanges(before, after, await zeroId(dir));
    const branches = await listBranches(dir);
    let defaultBranch = loaded.repo.defaultBranch;
    if (branches.length && !branches.includes(defaultBranch)) {
      const had = new Set([...before.keys()]);
      defaultBranch = branches.find((b) => !had.has(`refs/heads/${b}`)) ?? branches[0]!;
      await setHead(dir, defaultBranch);
    }
    await this.branches.refsChanged(loaded, actorId, changes, [...before.values()], { defaultBranch }, async (tx) => {
      await tx.delete(pendingPushes).where(eq(pendingPushes.id, pendingId));
    });
  }

  /**
   * Pushes whose process died after git moved the refs: those of dead processes on this host, and any
   * older than an hour (no push takes that long). Each is recorded as the difference between its refs
   * before and git's refs now.
   */
  async reconcilePendingPushes(): Promise<number> {
    const { db } = this.deps;
    const rows = await db
      .select({ pending: pendingPushes, repo: repositories, owner: users })
      .from(pendingPushes)
      .leftJoin(repositories, eq(repositories.id, pendingPushes.repoId))
      .leftJoin(users, eq(users.id, repositories.ownerId))
      .orderBy(pendingPushes.id);
    let done = 0;
    for (const { pending, repo, owner } of rows) {
      if (!isStale(pending.holder, pending.startedAt)) continue;
      if (!repo || !owner) {
        await db.delete(pendingPushes).where(eq(pendingPushes.id, pending.id));
        continue;
      }
      await this.afterPush({ repo, owner }, pending.actorId, new Map(Object.entries(pending.before)), pending.id);
      done++;
    }
    return done;
  }

  private dir(loaded: Pick<TransportTarget, 'repo' | 'owner' | 'wiki'>): string {
    return (loaded.wiki ? wikiDir : repoDir)(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
  }
}

const holderId = () => `${hostname()}:${process.pid}`;

/** A pending push nobody is serving any more: its process on this host is gone, or it is over an hour old. */
function isStale(holder: string, startedAt: Date): boolean {
  if (Date.now() - startedAt.getTime() > 3600_000) return true;
  const [host, pid] = holder.split(':');
  return host === hostname() && Number(pid) !== process.pid && !processAlive(Number(pid));
}
