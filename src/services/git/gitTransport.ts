// git over HTTP: who may fetch from or push to a repository (the API's permission model, read or write
// on the code unit), and what a push changes in the repository's row.
import type { Readable } from 'node:stream';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { pendingPushes, repositories, users, type PendingPushRow, type UserRow } from '../../db/schema/index.js';
import { zeroIdLike } from '../../git/commit.js';
import { autoGc } from '../../git/maintenance.js';
import { journalUpdates, listRefTips, sortChanges, type RefChange } from '../../git/pushLog.js';
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
import { claimLapsed, keepRenewed, leaseEnd, newHolder } from '../leases.js';

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

/** Where git journals the ref updates of pending push `id` (shared by every process on the data folder). */
export const pushJournalPath = (dataDir: string, id: number): string => join(dataDir, 'tmp', 'pushes', `${id}.log`);

/** The pending push was taken over by another process (this one stalled past its lease): it records it. */
class TakenOver extends Error {}

type PendingPush = Pick<PendingPushRow, 'id' | 'actorId' | 'before'>;

export class GitTransportService {
  /** This instance's name in the rows it leases. */
  private readonly holder = newHolder();

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
    const { hooks, afterExit } = await this.beginPush(loaded, pusher, deployKey);
    return servePack(dir, service, io, { ...stream, hooks, afterExit });
  }

  /**
   * Announces a push before receive-pack runs: a pending-push row leased by this process (renewed while
   * git runs) and the hooks git is to run: the pre-receive hook with this pusher's rules for the
   * repository's protected branches, and the reference-transaction hook that journals each ref update
   * into the row's journal file. `afterExit` records the journal once git is done.
   */
  private async beginPush(loaded: LoadedRepo, actor: UserRow, deployKey: boolean) {
    const { db, config, log } = this.deps;
    const protections = this.branches.protections;
    const [rules, tagRules, before] = await Promise.all([
      protections.pushRules(loaded, actor, deployKey), protections.tags.pushRules(loaded.repo.id, deployKey ? null : actor), listRefTips(this.dir(loaded)),
    ]);
    const [pending] = await db
      .insert(pendingPushes)
      .values({ repoId: loaded.repo.id, actorId: actor.id, before: Object.fromEntries(before), holder: this.holder, leaseUntil: leaseEnd(config.leftovers.leaseMs) })
      .returning();
    const journal = pushJournalPath(config.dataDir, pending!.id);
    mkdirSync(dirname(journal), { recursive: true });
    const stopRenewing = keepRenewed(config.leftovers.leaseMs, () => db.update(pendingPushes)
      .set({ leaseUntil: leaseEnd(config.leftovers.leaseMs) })
      .where(and(eq(pendingPushes.id, pending!.id), eq(pendingPushes.holder, this.holder))), log);
    const custom = !config.disableGitHooks;
    const env: Record<string, string> = {
      ANVIL_PUSH_JOURNAL: journal, ...(rules ? { ANVIL_BRANCH_RULES: rules } : {}), ...(tagRules ? { ANVIL_TAG_RULES: tagRules } : {}),
      ...(custom ? customHookEnv(loaded, actor) : {}),
    };
    const afterExit = async () => {
      stopRenewing();
      // Tests only: die as a crash would, after git moved the refs and before anything is recorded.
      if (config.leftovers.crashAfterPush) process.kill(process.pid, 'SIGKILL');
      await this.finishPush(loaded, pending!);
    };
    return { hooks: { path: hooksDir(config.dataDir, custom), env }, afterExit };
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
   * Runs `service` on the request body. A push is announced first (a leased pending-push row, and the
   * journal git writes its ref updates to), so that what it changed is recorded even if this process
   * dies once git has moved them: the client's answer ends only after the events are recorded, and a row
   * left behind is taken over by a live process once its lease lapses.
   */
  async rpc(loaded: TransportTarget, service: GitService, input: Readable, stream: TransportStream = {}, actor?: UserRow | null): Promise<Readable> {
    const dir = this.dir(loaded);
    if (!isPush(service) || !actor || loaded.wiki) return serviceRpc(dir, service, input, stream);
    const { hooks, afterExit } = await this.beginPush(loaded, actor, false);
    return serviceRpc(dir, service, input, { ...stream, hooks, afterExit });
  }

  /**
   * The ref updates git journalled for a push: those it committed, and those it prepared but was stopped
   * before reporting (a killed git), if the ref is now where that update put it.
   */
  private async journalledChanges(dir: string, id: number): Promise<RefChange[]> {
    let text = '';
    try {
      text = readFileSync(pushJournalPath(this.deps.config.dataDir, id), 'utf8');
    } catch (err) {
      // No journal: git moved no ref (the push was refused, or never reached git).
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const { committed, unsure } = journalUpdates(text);
    if (!unsure.length) return committed;
    const now = await listRefTips(dir);
    const landed = unsure.filter((c) => (now.get(c.ref) ?? zeroIdLike(c.after)) === c.after);
    return sortChanges([...committed, ...landed]);
  }

  /**
   * Records what the push did (its journal) and brings the row in step with git, in the transaction that
   * deletes the pending row, which only its holder may do: a push is recorded once, by this process or
   * by the one that took it over. A push that leaves HEAD on a missing branch (the first push into an
   * empty repository) makes the configured default branch, if pushed, or else the first new branch the
   * default.
   */
  private async finishPush(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, pending: PendingPush): Promise<void> {
    const dir = this.dir(loaded);
    const changes = await this.journalledChanges(dir, pending.id);
    const branches = await listBranches(dir);
    let defaultBranch = loaded.repo.defaultBranch;
    if (branches.length && !branches.includes(defaultBranch)) {
      const created = changes.find((c) => c.ref.startsWith('refs/heads/') && /^0+$/.test(c.before) && branches.includes(c.ref.slice('refs/heads/'.length)));
      defaultBranch = created ? created.ref.slice('refs/heads/'.length) : branches[0]!;
      await setHead(dir, defaultBranch);
    }
    try {
      await this.branches.refsChanged(loaded, pending.actorId, changes, Object.values(pending.before), { defaultBranch }, async (tx) => {
        const mine = await tx.delete(pendingPushes)
          .where(and(eq(pendingPushes.id, pending.id), eq(pendingPushes.holder, this.holder)))
          .returning({ id: pendingPushes.id });
        if (!mine.length) throw new TakenOver();
      });
    } catch (err) {
      if (err instanceof TakenOver) {
        this.deps.log.warn({ pendingPush: pending.id }, 'a push was recorded by the process that took it over');
        return;
      }
      throw err;
    }
    rmSync(pushJournalPath(this.deps.config.dataDir, pending.id), { force: true });
    // The upkeep receive-pack would have started (it runs none of its own: see git/smartHttp.ts).
    if (changes.length) {
      void autoGc(dir, 10 * 60_000).then((r) => {
        if (!r.ok) this.deps.log.warn({ repoId: loaded.repo.id, problem: r.problem }, 'git gc --auto after a push failed');
      });
    }
  }

  /**
   * Pushes whose process died (or stalled past its lease) before recording them: claims up to `limit`
   * of them (any process may; each is claimed by one) and records what git journalled for each.
   * Answers how many it took.
   */
  async recoverPendingPushes(limit = 5): Promise<number> {
    const { db, config, log } = this.deps;
    const claimed = await claimLapsed(db, pendingPushes, this.holder, config.leftovers.leaseMs, limit);
    for (const pending of claimed) {
      const [site] = await db.select({ repo: repositories, owner: users }).from(repositories)
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .where(eq(repositories.id, pending.repoId));
      if (!site) {
        // The repository is gone, and its refs with it: nothing to record.
        await db.delete(pendingPushes).where(and(eq(pendingPushes.id, pending.id), eq(pendingPushes.holder, this.holder)));
        rmSync(pushJournalPath(config.dataDir, pending.id), { force: true });
        continue;
      }
      try {
        await this.finishPush(site, pending);
        log.warn({ pendingPush: pending.id, repoId: pending.repoId }, 'recorded a push its process left unrecorded');
      } catch (err) {
        // Left leased: taken again when the lease lapses.
        log.warn({ err, pendingPush: pending.id }, 'could not record an interrupted push');
      }
    }
    return claimed.length;
  }

  /**
   * Journal files whose push is no longer pending and that were last written over `minAgeMs` ago: left by
   * a process that died between recording a push and removing its journal. Answers how many went.
   */
  async sweepJournals(minAgeMs = 3600_000): Promise<number> {
    const folder = dirname(pushJournalPath(this.deps.config.dataDir, 0));
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return 0;
    }
    const old = names.flatMap((name) => {
      const m = /^(\d+)\.log$/.exec(name);
      if (!m) return [];
      try {
        return Date.now() - statSync(join(folder, name)).mtimeMs > minAgeMs ? [Number(m[1])] : [];
      } catch {
        return [];
      }
    });
    if (!old.length) return 0;
    const pending = new Set((await this.deps.db.select({ id: pendingPushes.id }).from(pendingPushes).where(inArray(pendingPushes.id, old))).map((r) => r.id));
    let n = 0;
    for (const id of old) {
      if (pending.has(id)) continue;
      rmSync(pushJournalPath(this.deps.config.dataDir, id), { force: true });
      n++;
    }
    return n;
  }

  private dir(loaded: Pick<TransportTarget, 'repo' | 'owner' | 'wiki'>): string {
    return (loaded.wiki ? wikiDir : repoDir)(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
  }
}

/** What a repository's custom hooks learn of the push, under Gitea's names (its PushingEnvironment). */
function customHookEnv(loaded: LoadedRepo, pusher: UserRow): Record<string, string> {
  return {
    GITEA_REPO_USER_NAME: loaded.owner.name, GITEA_REPO_NAME: loaded.repo.name, GITEA_REPO_ID: String(loaded.repo.id), GITEA_REPO_IS_WIKI: 'false',
    GITEA_PUSHER_NAME: pusher.name, GITEA_PUSHER_EMAIL: pusher.email, GITEA_PUSHER_ID: String(pusher.id),
  };
}
