// Moving a repository in (#39, `POST /repos/migrate`): the git repository from any HTTP(S) address, and
// from a Gitea-compatible server (`service: gitea`) its labels, milestones, issues with comments, pull
// requests and releases read through that server's `/api/v1`. Everything is read first — git into a
// scratch folder, the API into memory — and then written in one transaction with the repository's row,
// so a source that fails or dies part way leaves nothing behind. The migration runs as a task
// (`migrate_tasks`, services/repos/migrationTasks.ts) of the process that accepted it, under a lease:
// a placeholder row (`status` being migrated) holds the name meanwhile, the task's row tells its
// progress, and a failure ends the task with its message and removes the placeholder. Authors are kept as Gitea keeps them:
// the migrating user posts, `original_author`/`original_author_id` name the source's account.
import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from '../../db/client.js';
import { and, count, eq, inArray } from 'drizzle-orm';
import {
  attachments, collaborations, comments, issueCounters, issueLabels, issues, labels, migrateTasks, milestones, pullMirrors, pullRequests, releases,
  reactions, repoStatus, repoWatches, repositories, taskStatus, type MigrateTaskRow, type RepoRow, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { AttachmentStorage, attachmentKey } from '../../storage/attachments.js';
import { beginCreate, wikiScratchOf } from '../../git/folderMoves.js';
import { initBare } from '../../git/init.js';
import { folderSize } from '../../git/size.js';
import { repoDir, wikiDir } from '../../git/paths.js';
import { branchCount, refTargets, setHead } from '../../git/refs.js';
import { fetchRemote, remoteExists, remoteFailure, remoteHead } from '../../git/remote.js';
import { open, seal, type SecretKey } from '../actions/secretBox.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, isUniqueViolation, NotFound } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { checkRepoName } from '../names.js';
import type { OrgService } from '../orgs/orgs.js';
import type { UserService } from '../users/users.js';
import type { AccessService } from './access.js';
import { claimLapsed, keepRenewed, leaseEnd, newHolder } from '../leases.js';
import { FolderJournals } from './folderJournals.js';
import { errorOf, failTask, failureOf, heldBy, interruptedMessage, optionsPlace, progressText, taskById, taskGone, taskOfRepo } from './migrationTasks.js';
import { checkRemote, gitAccess, GiteaApiReader, hasCredentials, type RemoteCredentials } from './remoteAccess.js';
import { mirrorIntervalSeconds, mirrorSecretPlace } from './mirrorSettings.js';
import { checkLfsEndpoint, LfsFetcher } from './migrateLfs.js';

export interface MigrateInput {
  cloneAddr: string;
  repoName: string;
  repoOwner?: string;
  uid?: number;
  service?: string;
  authUsername?: string;
  authPassword?: string;
  authToken?: string;
  description?: string;
  private?: boolean;
  mirror?: boolean;
  mirrorInterval?: string;
  wiki?: boolean;
  milestones?: boolean;
  labels?: boolean;
  issues?: boolean;
  pullRequests?: boolean;
  releases?: boolean;
  lfs?: boolean;
  lfsEndpoint?: string;
}

const giteaLike = new Set(['gitea', 'forgejo', 'gogs']);

// The parts of Gitea's API objects a migration reads.
interface SrcUser { id: number; login: string }
interface SrcLabel { id: number; name: string; color: string; description?: string; exclusive?: boolean; is_archived?: boolean }
interface SrcMilestone { id: number; title: string; description?: string; state: string; due_on?: string | null; closed_at?: string | null; created_at?: string; updated_at?: string | null }
interface SrcIssue {
  id: number; number: number; title: string; body?: string; user?: SrcUser | null; state: string; labels?: SrcLabel[] | null;
  milestone?: SrcMilestone | null; created_at: string; updated_at?: string; closed_at?: string | null; is_locked?: boolean;
  original_author?: string; original_author_id?: number; pull_request?: unknown;
}
interface SrcPull extends SrcIssue {
  head?: { ref?: string; sha?: string } | null; base?: { ref?: string; sha?: string } | null; merged?: boolean;
  merged_at?: string | null; merge_commit_sha?: string | null; merge_base?: string; draft?: boolean;
}
interface SrcComment { id: number; body?: string; user?: SrcUser | null; created_at: string; updated_at?: string; original_author?: string; original_author_id?: number }
interface SrcAsset { id: number; name: string; size: number; download_count?: number; created_at?: string; browser_download_url: string }
interface SrcRelease {
  id: number; tag_name: string; target_commitish?: string; name?: string; body?: string; draft?: boolean; prerelease?: boolean;
  created_at?: string; published_at?: string | null; author?: SrcUser | null; assets?: SrcAsset[] | null;
}
interface SrcReaction { user?: SrcUser | null; content: string; created_at?: string }

interface Fetched {
  labels: SrcLabel[];
  milestones: SrcMilestone[];
  issues: Array<{ issue: SrcIssue; pull?: SrcPull; comments: SrcComment[]; reactions: SrcReaction[]; commentReactions: Map<number, SrcReaction[]> }>;
  releases: SrcRelease[];
  /** The release assets already stored (attachment storage), by the source's release id. */
  assets: Map<number, Array<{ asset: SrcAsset; uuid: string; size: number }>>;
}

const when = (s: string | null | undefined) => (s && !s.startsWith('0001-') ? new Date(s) : undefined);
/** The source's author: its own original author when it was migrated there too, else its account. */
const authorOf = (o: { user?: SrcUser | null; author?: SrcUser | null; original_author?: string; original_author_id?: number }) =>
  o.original_author ? { name: o.original_author, id: o.original_author_id ?? 0 } : { name: (o.user ?? o.author)?.login ?? '', id: (o.user ?? o.author)?.id ?? 0 };

export class MigrationService {
  private readonly journals: FolderJournals;
  private readonly attachments: AttachmentStorage;
  private readonly lfs: LfsFetcher;
  private readonly holder = newHolder();
  /** The tasks this process runs, by id: what their waiting requests await. */
  private readonly running = new Map<number, Promise<void>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly orgs: OrgService,
    private readonly users: UserService,
    private readonly keys: () => Promise<SecretKey[]>,
  ) {
    this.journals = new FolderJournals(deps);
    this.attachments = new AttachmentStorage(deps.config);
    this.lfs = new LfsFetcher(deps);
  }

  /** The owner the caller asked for, if the caller may create repositories there. */
  private async ownerFor(actor: UserRow, input: MigrateInput): Promise<UserRow> {
    let owner: UserRow | undefined = actor;
    if (input.repoOwner) owner = await this.users.byName(input.repoOwner);
    else if (input.uid) owner = await this.users.byId(input.uid);
    if (!owner) throw new Invalid(`user or organization does not exist [name: ${input.repoOwner ?? input.uid}]`);
    if (owner.id === actor.id || actor.isAdmin) return owner;
    if (owner.type === 'Organization') {
      if (await this.orgs.canCreateRepo(owner, actor)) return owner;
      throw new Forbidden(`Given user is not owner of organization.`);
    }
    throw new Forbidden('Given user is not an organization.');
  }

  /**
   * `POST /repos/migrate`: what can be checked at once is (a 4xx before anything is written), then the
   * migration runs as a task of this process (`start`) and the request waits for its end, as Gitea's API
   * answers once the migration finished. A client that goes away does not stop the task.
   */
  async migrate(actor: UserRow, input: MigrateInput): Promise<{ repo: RepoRow; owner: UserRow }> {
    const task = await this.start(actor, input);
    return this.outcome(task.id);
  }

  /**
   * Checks the request and creates the task with its placeholder repository (being migrated: it holds
   * the name and shows in `GET /repos/{owner}/{repo}`) in one transaction, then runs the task here in the
   * background, under a lease renewed while it runs.
   */
  async start(actor: UserRow, input: MigrateInput): Promise<MigrateTaskRow> {
    const { db, config } = this.deps;
    const service = (input.service || 'git').toLowerCase();
    if (service !== 'git' && !giteaLike.has(service)) throw new Invalid(`migrations from ${service} are not supported: use service "git" or a Gitea-compatible server`);
    checkRepoName(input.repoName);
    const owner = await this.ownerFor(actor, input);
    const lowerName = input.repoName.toLowerCase();
    const conflict = () => new Conflict('The repository with the same name already exists.');
    const [taken] = await db.select({ id: repositories.id }).from(repositories).where(and(eq(repositories.ownerId, owner.id), eq(repositories.lowerName, lowerName)));
    if (taken) throw conflict();
    const limit = owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : config.maxCreationLimit;
    if (!actor.isAdmin && limit >= 0) {
      const [n] = await db.select({ n: count() }).from(repositories).where(eq(repositories.ownerId, owner.id));
      if ((n?.n ?? 0) >= limit) throw new Invalid(`You have already reached your limit of ${limit} repositories.`);
    }
    if (input.mirror) mirrorIntervalSeconds(input.mirrorInterval, this.deps);
    const given: RemoteCredentials = { username: input.authUsername || undefined, password: input.authPassword || undefined, token: input.authToken || undefined };
    const remote = await checkRemote(config.migrations, input.cloneAddr, given);
    if (input.lfs && config.lfs.enabled) await checkLfsEndpoint(config.migrations, remote, input.lfsEndpoint || undefined);
    const [key] = await this.keys();
    if (!key) throw new Error('no secret key to seal the migration options with');
    const { leaseMs } = config.leftovers;
    let task: MigrateTaskRow;
    try {
      task = await withTx(db, async (tx) => {
        const [repo] = await tx.insert(repositories).values({
          ownerId: owner.id, name: input.repoName, lowerName, description: input.description ?? '', isPrivate: input.private ?? false,
          isMirror: input.mirror ?? false, originalUrl: remote.url, originalServiceType: service, status: repoStatus.beingMigrated,
        }).returning({ id: repositories.id });
        const [row] = await tx.insert(migrateTasks).values({
          doerId: actor.id, ownerId: owner.id, repoId: repo!.id, repoName: input.repoName, holder: this.holder, leaseUntil: leaseEnd(leaseMs),
          options: seal(key, optionsPlace({ ownerId: owner.id, repoId: repo!.id }), JSON.stringify(input)),
        }).returning();
        return row!;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict();
      throw err;
    }
    this.launch(task);
    return task;
  }

  /** Runs a task held by this process in the background; `outcome` waits for it. */
  private launch(task: MigrateTaskRow): void {
    const run = this.run(task).catch((err: unknown) => this.deps.log.error({ err, task: task.id }, 'a migration task could not be ended'));
    this.running.set(task.id, run);
    void run.finally(() => this.running.delete(task.id));
  }

  /** The migrations this process runs now (shutdown waits for them). */
  async drain(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  private async run(task: MigrateTaskRow): Promise<void> {
    const { db, config, log } = this.deps;
    const { leaseMs } = config.leftovers;
    const mine = and(eq(migrateTasks.id, task.id), eq(migrateTasks.holder, this.holder), inArray(migrateTasks.status, [taskStatus.queued, taskStatus.running]));
    const stop = keepRenewed(leaseMs, () => db.update(migrateTasks).set({ leaseUntil: leaseEnd(leaseMs) }).where(mine), log);
    try {
      const started = await db.update(migrateTasks).set({ status: taskStatus.running, startedAt: new Date(), message: '' })
        .where(and(eq(migrateTasks.id, task.id), eq(migrateTasks.holder, this.holder), eq(migrateTasks.status, taskStatus.queued))).returning({ id: migrateTasks.id });
      if (!started.length) return; // taken over by another process meanwhile
      const [doer, owner] = await Promise.all([this.users.byId(task.doerId), this.users.byId(task.ownerId)]);
      const text = task.options ? open(await this.keys(), optionsPlace(task), task.options) : undefined;
      if (!doer || !owner) throw new Invalid('the account that asked for the migration, or its owner, no longer exists');
      if (!text) throw new Invalid('the migration\'s options cannot be read (the secret key changed)');
      await this.perform(task, doer, owner, JSON.parse(text) as MigrateInput);
    } catch (err) {
      const failure = failureOf(err);
      if (failure.failure === 'internal') log.error({ err, task: task.id }, 'a migration failed');
      await failTask(db, task, this.holder, failure);
    } finally {
      stop();
    }
  }

  /** The caller's own migration task (Gitea's GetMigratingTaskByID: only its doer's); 404 otherwise. */
  async taskOf(id: number, actor: UserRow): Promise<MigrateTaskRow> {
    const task = await taskById(this.deps.db, id);
    if (!task || task.doerId !== actor.id) throw new NotFound(`task \`${id}\` does not exist`);
    return task;
  }

  /** The migration task of a repository being migrated. */
  taskOfRepo(repoId: number): Promise<MigrateTaskRow | undefined> {
    return taskOfRepo(this.deps.db, repoId);
  }

  /** What a running task does now, in its row (while this process still holds it). */
  private async say(task: MigrateTaskRow, message: string): Promise<void> {
    await this.deps.db.update(migrateTasks).set({ message }).where(heldBy(task.id, this.holder));
  }

  /** Waits for a task's end: the repository it made, or the error it failed with (the status it would have had). */
  private async outcome(id: number): Promise<{ repo: RepoRow; owner: UserRow }> {
    const { db } = this.deps;
    await this.running.get(id);
    let task = await taskById(db, id);
    // Run by another process (taken over after a lapsed lease): its row tells the end.
    while (task && (task.status === taskStatus.queued || task.status === taskStatus.running)) {
      await new Promise((r) => setTimeout(r, 250));
      task = await taskById(db, id);
    }
    if (!task) throw taskGone(id);
    if (task.status !== taskStatus.finished) throw errorOf(task);
    const [repo] = task.repoId ? await db.select().from(repositories).where(eq(repositories.id, task.repoId)) : [];
    const owner = await this.users.byId(task.ownerId);
    // Finished, then its owner (and with it the repository) deleted before this read: gone as the task.
    if (!repo || !owner) throw taskGone(id);
    return { repo, owner };
  }

  /**
   * Tasks whose process died (their lease lapsed): one that never started is run here; one that was
   * running is failed with a message, its placeholder removed (its scratch folder is the folder
   * journals' to remove). Answers how many it took.
   */
  async recoverTasks(limit = 5): Promise<number> {
    const { db, config, log } = this.deps;
    const claimed = await claimLapsed(db, migrateTasks, this.holder, config.leftovers.leaseMs, limit);
    for (const task of claimed) {
      if (task.status === taskStatus.queued) {
        this.launch(task);
        continue;
      }
      if (await failTask(db, task, this.holder, { failure: 'internal', message: interruptedMessage })) {
        log.warn({ task: task.id }, 'failed a migration task whose process died');
      }
    }
    return claimed.length;
  }

  /** The body of a task: the source read into a scratch folder and memory, then written in one transaction. */
  private async perform(task: MigrateTaskRow, actor: UserRow, owner: UserRow, input: MigrateInput): Promise<void> {
    const { db, config } = this.deps;
    const service = (input.service || 'git').toLowerCase();
    const lowerName = input.repoName.toLowerCase();
    const interval = input.mirror ? mirrorIntervalSeconds(input.mirrorInterval, this.deps) : 0;
    const given: RemoteCredentials = { username: input.authUsername || undefined, password: input.authPassword || undefined, token: input.authToken || undefined };
    const remote = await checkRemote(config.migrations, input.cloneAddr, given);
    const gitUrl = remote.url;
    // LFS objects only where this server serves LFS (Gitea: `lfs && LFS_START_SERVER`); the endpoint judged like the address.
    const lfsEndpoint = input.lfs && config.lfs.enabled ? await checkLfsEndpoint(config.migrations, remote, input.lfsEndpoint || undefined) : undefined;

    // Read everything before writing anything.
    const journal = await beginCreate(config.dataDir, owner.id, lowerName, repoDir(config.dataDir, owner.name, input.repoName), this.journals);
    const { scratch } = journal;
    const wikiScratch = wikiScratchOf(scratch);
    let wikiFetched = false;
    let fetched: Fetched | undefined;
    // Release assets stored before the transaction; removed again if it does not commit.
    const stored: string[] = [];
    try {
      await this.say(task, progressText.git);
      const access = gitAccess(remote);
      let head: string | undefined;
      try {
        head = await remoteHead(config.dataDir, gitUrl, access);
      } catch (err) {
        throw new Invalid(`the git repository at ${gitUrl} cannot be read: ${remoteFailure(err)}`);
      }
      const giteaSource = giteaLike.has(service) ? sourceOf(gitUrl) : undefined;
      await initBare(scratch, { objectFormat: 'sha1', defaultBranch: head ?? 'main' });
      const refspecs = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];
      if (giteaSource && input.pullRequests && !input.mirror) refspecs.push('+refs/pull/*/head:refs/pull/*/head');
      try {
        await fetchRemote(scratch, gitUrl, refspecs, access);
      } catch (err) {
        throw new Invalid(`the git repository at ${gitUrl} cannot be read: ${remoteFailure(err)}`);
      }
      if (head) await setHead(scratch, head);
      // LFS objects stored before the transaction; one that is never recorded is left to gc_lfs (docs/lfs-and-storage.md).
      const lfsObjects = lfsEndpoint ? (await this.lfs.fetch(scratch, lfsEndpoint, { what: `migration of ${gitUrl}` })).stored : [];
      if (giteaSource && !input.mirror) {
        const reader = new GiteaApiReader(remote, giteaSource.base);
        try {
          fetched = await this.readSource(reader, giteaSource.path, input, (text) => this.say(task, text));
          await this.storeAssets(reader, fetched, stored);
        } finally {
          await reader.close();
        }
      }
      const wikiUrl = `${gitUrl.replace(/\.git$/, '')}.wiki.git`;
      if (input.wiki && (await remoteExists(scratch, wikiUrl, access))) {
        // The wiki keeps the branch its HEAD names there (the wiki service writes to HEAD's branch).
        const wikiHead = await remoteHead(config.dataDir, wikiUrl, access).catch(() => undefined);
        await initBare(wikiScratch, { objectFormat: 'sha1', defaultBranch: wikiHead ?? head ?? 'main' });
        try {
          await fetchRemote(wikiScratch, wikiUrl, ['+refs/heads/*:refs/heads/*'], access);
        } catch (err) {
          throw new Invalid(`the wiki at ${gitUrl} cannot be read: ${remoteFailure(err)}`);
        }
        wikiFetched = true;
      }
      // Tests only: die as a crash would, with the source read into the scratch folder and nothing written.
      if (config.leftovers.crashMidMigration) process.kill(process.pid, 'SIGKILL');
      const branches = await branchCount(scratch);
      const tips = await refTargets(scratch);
      // Its size as Gitea's after a migration: the git folder's bytes and those of its LFS objects.
      const sizeBytes = (await folderSize(scratch)) + lfsObjects.reduce((n, o) => n + o.size, 0);
      // Any one of a user name, a password or a token, given in the body or in the address (`https://:TOKEN@host/…`).
      const sealed = input.mirror && hasCredentials(remote.credentials) ? JSON.stringify(remote.credentials) : undefined;
      const [key] = sealed ? await this.keys() : [];

      // The placeholder becomes the repository and the task ends, in one transaction held by the lease.
      await withTx(db, async (tx) => {
        const [row] = await tx.update(repositories).set({
          name: input.repoName, lowerName, description: input.description ?? '', isPrivate: input.private ?? false,
          isEmpty: branches === 0, isMirror: input.mirror ?? false, defaultBranch: head ?? 'main', numBranches: branches, numWatches: 1,
          originalUrl: gitUrl, originalServiceType: service, sizeBytes, status: repoStatus.ready,
        }).where(and(eq(repositories.id, task.repoId ?? 0), eq(repositories.status, repoStatus.beingMigrated))).returning();
        if (!row) throw new Conflict('the repository was removed while it was being migrated');
        const ended = await tx.update(migrateTasks).set({ status: taskStatus.finished, message: '', endedAt: new Date(), leaseUntil: null, options: null })
          .where(heldBy(task.id, this.holder)).returning({ id: migrateTasks.id });
        if (!ended.length) throw new Conflict('the migration task was taken over by another process');
        const repo = row;
        if (owner.type === 'Organization') {
          const perm = await this.access.repoPermissionIn(tx, repo, owner, { ...actor, isAdmin: false });
          if (perm.mode !== 'admin' && perm.mode !== 'owner') await tx.insert(collaborations).values({ repoId: repo.id, userId: actor.id, accessMode: 'admin' });
        }
        await tx.insert(repoWatches).values({ userId: actor.id, repoId: repo.id });
        if (input.mirror) {
          const now = new Date();
          await tx.insert(pullMirrors).values({
            repoId: repo.id, remoteUrl: gitUrl, credentials: sealed && key ? seal(key, mirrorSecretPlace(repo.id), sealed) : null,
            lfs: !!lfsEndpoint, lfsEndpoint: lfsEndpoint ? (input.lfsEndpoint ?? '') : '', intervalSeconds: interval, nextSyncAt: interval ? new Date(now.getTime() + interval * 1000) : null, lastSyncAt: now, updatedAt: now,
          });
        }
        if (fetched) await writeFetched(tx, repo, actor, fetched, tips);
        await LfsFetcher.record(tx, repo.id, lfsObjects);
        await recordEvent(this.deps, tx, {
          type: 'repository', action: 'created', repoName: repo.name, ...inRepo(repo, actor.id), activity: { opType: 'create_repo' },
        });
        await journal.place(tx);
      });
      await journal.committed();
      if (wikiFetched) moveWiki(wikiScratch, wikiDir(config.dataDir, owner.name, input.repoName));
    } catch (err) {
      await journal.abandon();
      for (const uuid of stored) await this.attachments.remove(uuid).catch(() => undefined);
      throw err;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(wikiScratch, { recursive: true, force: true });
    }
  }

  /** `say`: the progress, in the task's row (Gitea's texts). */
  private async readSource(reader: GiteaApiReader, path: string, input: MigrateInput, say: (text: string) => Promise<void>): Promise<Fetched> {
    const info = await reader.get<{ id: number }>(`/repos/${path}`, true);
    if (!info) throw new Invalid(`the source server has no repository ${path} (or the token cannot see it)`);
    const out: Fetched = { labels: [], milestones: [], issues: [], releases: [], assets: new Map() };
    if (input.labels) await say(progressText.labels);
    if (input.labels) out.labels = await reader.all<SrcLabel>(`/repos/${path}/labels`);
    if (input.milestones) await say(progressText.milestones);
    if (input.milestones) out.milestones = await reader.all<SrcMilestone>(`/repos/${path}/milestones?state=all`);
    const wanted: Array<{ issue: SrcIssue; pull?: SrcPull }> = [];
    if (input.issues) await say(progressText.issues);
    if (input.issues) for (const i of await reader.all<SrcIssue>(`/repos/${path}/issues?state=all&type=issues`)) wanted.push({ issue: i });
    if (input.pullRequests) for (const p of await reader.all<SrcPull>(`/repos/${path}/pulls?state=all`)) wanted.push({ issue: p, pull: p });
    for (const w of wanted) {
      if (w.pull && w === wanted.find((x) => x.pull)) await say(progressText.pulls);
      const got = (await reader.get<SrcComment[]>(`/repos/${path}/issues/${w.issue.number}/comments`)) ?? [];
      const comments = Array.isArray(got) ? got : [];
      const reactions = await reader.all<SrcReaction & { id?: number }>(`/repos/${path}/issues/${w.issue.number}/reactions`);
      const commentReactions = new Map<number, SrcReaction[]>();
      for (const c of comments) {
        const list = (await reader.get<SrcReaction[]>(`/repos/${path}/issues/comments/${c.id}/reactions`, true)) ?? [];
        if (Array.isArray(list) && list.length) commentReactions.set(c.id, list);
      }
      out.issues.push({ ...w, comments, reactions, commentReactions });
    }
    if (input.releases) await say(progressText.releases);
    if (input.releases) out.releases = await reader.all<SrcRelease>(`/repos/${path}/releases`);
    return out;
  }

  /**
   * Each release's assets, streamed from the source into the attachment storage (with no transaction
   * open): its size checked against the source's word and ATTACHMENT_MAX_SIZE. `stored` collects the
   * new files' uuids, for removal if the migration does not complete.
   */
  private async storeAssets(reader: GiteaApiReader, f: Fetched, stored: string[]): Promise<void> {
    const max = this.deps.config.attachment.maxSizeMiB * 1024 * 1024;
    for (const release of f.releases) {
      for (const asset of release.assets ?? []) {
        const body = await reader.download(asset.browser_download_url);
        const uuid = randomUUID();
        stored.push(uuid);
        let seen = 0;
        const size = await this.attachments.store.put(attachmentKey(uuid), body, {
          chunk: (c) => {
            seen += c.length;
            if (seen > max) throw new Invalid(`the release asset ${asset.name} is larger than ATTACHMENT_MAX_SIZE`);
          },
          end: () => {
            if (typeof asset.size === 'number' && seen !== asset.size) throw new Invalid(`the release asset ${asset.name} arrived with ${seen} bytes, not ${asset.size}`);
          },
        }).catch((err: Error) => {
          body.destroy();
          throw err instanceof Invalid ? err : new Invalid(`the release asset ${asset.name} could not be read: ${err.message}`);
        });
        const list = f.assets.get(release.id) ?? [];
        list.push({ asset, uuid, size });
        f.assets.set(release.id, list);
      }
    }
  }
}

/** `https://host/prefix/owner/name(.git)` → the API base and `owner/name`. */
function sourceOf(url: string): { base: string; path: string } {
  const u = new URL(url);
  const parts = u.pathname.replace(/\.git$/, '').split('/').filter(Boolean);
  if (parts.length < 2) throw new Invalid('Invalid clone_addr: a Gitea repository address is https://host/owner/name');
  const path = parts.slice(-2).map(encodeURIComponent).join('/');
  return { base: `${u.origin}${parts.length > 2 ? `/${parts.slice(0, -2).join('/')}` : ''}`, path };
}

/** The wiki's fetched copy into place, once the repository is (same file system: both under $DATA_DIR). */
function moveWiki(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  rmSync(to, { recursive: true, force: true });
  renameSync(from, to);
}

type Tx = Db;

async function writeFetched(tx: Tx, repo: RepoRow, actor: UserRow, f: Fetched, tips: Map<string, string>): Promise<void> {
  const labelIds = new Map<string, number>();
  if (f.labels.length) {
    const rows = await tx.insert(labels).values(f.labels.map((l) => ({
      repoId: repo.id, name: l.name, color: l.color.replace(/^#?/, '#'), description: l.description ?? '', exclusive: l.exclusive ?? false,
      isArchived: l.is_archived ?? false,
    }))).returning({ id: labels.id, name: labels.name });
    for (const r of rows) labelIds.set(r.name, r.id);
  }
  const milestoneIds = new Map<string, number>();
  if (f.milestones.length) {
    const rows = await tx.insert(milestones).values(f.milestones.map((m) => ({
      repoId: repo.id, name: m.title, description: m.description ?? '', isClosed: m.state === 'closed', dueOn: when(m.due_on),
      closedAt: when(m.closed_at), createdAt: when(m.created_at) ?? new Date(), updatedAt: when(m.updated_at) ?? when(m.created_at) ?? new Date(),
    }))).returning({ id: milestones.id, name: milestones.name });
    for (const r of rows) milestoneIds.set(r.name, r.id);
  }
  const labelCounts = new Map<number, { open: number; closed: number }>();
  const milestoneCounts = new Map<number, { open: number; closed: number }>();
  const bump = (m: Map<number, { open: number; closed: number }>, id: number, closed: boolean) => {
    const c = m.get(id) ?? { open: 0, closed: 0 };
    if (closed) c.closed++;
    else c.open++;
    m.set(id, c);
  };
  let maxIndex = 0;
  const tally = { issues: 0, closedIssues: 0, pulls: 0, closedPulls: 0 };
  for (const { issue, pull, comments: list, commentReactions } of f.issues.sort((a, b) => a.issue.number - b.issue.number)) {
    const closed = issue.state === 'closed';
    const milestoneId = issue.milestone ? milestoneIds.get(issue.milestone.title) : undefined;
    const author = authorOf(issue);
    const created = when(issue.created_at) ?? new Date();
    const [row] = await tx.insert(issues).values({
      repoId: repo.id, index: issue.number, posterId: actor.id, title: issue.title, body: issue.body ?? '', isPull: !!pull, isClosed: closed,
      isLocked: issue.is_locked ?? false, milestoneId, numComments: list.length, originalAuthor: author.name, originalAuthorId: author.id,
      createdAt: created, updatedAt: when(issue.updated_at) ?? created, closedAt: closed ? (when(issue.closed_at) ?? created) : undefined,
    }).returning({ id: issues.id });
    const issueId = row!.id;
    maxIndex = Math.max(maxIndex, issue.number);
    if (pull) {
      tally.pulls++;
      if (closed) tally.closedPulls++;
    } else {
      tally.issues++;
      if (closed) tally.closedIssues++;
    }
    const ids = [...new Set((issue.labels ?? []).map((l) => labelIds.get(l.name)).filter((id): id is number => id !== undefined))];
    if (ids.length) await tx.insert(issueLabels).values(ids.map((labelId) => ({ issueId, labelId })));
    for (const id of ids) bump(labelCounts, id, closed);
    if (milestoneId) bump(milestoneCounts, milestoneId, closed);
    const reactionRows: Array<typeof reactions.$inferInsert> = [];
    const react = (list: SrcReaction[], commentId: number | null) => {
      const seen = new Set<string>();
      for (const r of list) {
        const a = authorOf(r);
        const key = `${a.name}\0${r.content}`;
        if (!r.content || seen.has(key)) continue;
        seen.add(key);
        reactionRows.push({ issueId, commentId, userId: actor.id, type: r.content, originalAuthor: a.name, originalAuthorId: a.id, createdAt: when(r.created_at) ?? created });
      }
    };
    react(f.issues.find((x) => x.issue === issue)?.reactions ?? [], null);
    for (const c of list) {
      const a = authorOf(c);
      const at = when(c.created_at) ?? created;
      const [made] = await tx.insert(comments).values({
        issueId, repoId: repo.id, posterId: actor.id, body: c.body ?? '', originalAuthor: a.name, originalAuthorId: a.id, createdAt: at, updatedAt: when(c.updated_at) ?? at,
      }).returning({ id: comments.id });
      react(commentReactions.get(c.id) ?? [], made!.id);
    }
    if (reactionRows.length) await tx.insert(reactions).values(reactionRows);
    if (pull) {
      // The head is kept at refs/pull/<n>/head (fetched from the source); the branch itself may be gone.
      const headSha = tips.get(`refs/pull/${issue.number}/head`) ?? pull.head?.sha ?? '';
      await tx.insert(pullRequests).values({
        issueId, repoId: repo.id, headRepoId: repo.id, headBranch: pull.head?.ref ?? '', baseBranch: pull.base?.ref ?? repo.defaultBranch,
        headSha, baseSha: pull.base?.sha ?? '', mergeBase: pull.merge_base ?? '', merged: pull.merged ?? false, mergedAt: when(pull.merged_at),
        mergeCommitSha: pull.merge_commit_sha ?? undefined, isDraft: pull.draft ?? false,
      });
    }
  }
  for (const [id, c] of labelCounts) await tx.update(labels).set({ numIssues: c.open + c.closed, numClosedIssues: c.closed }).where(eq(labels.id, id));
  for (const [id, c] of milestoneCounts) await tx.update(milestones).set({ numIssues: c.open + c.closed, numClosedIssues: c.closed }).where(eq(milestones.id, id));
  if (maxIndex) await tx.insert(issueCounters).values({ repoId: repo.id, lastIndex: maxIndex });
  const published = f.releases.filter((r) => r.draft || tips.has(`refs/tags/${r.tag_name}`));
  if (published.length) {
    const made = await tx.insert(releases).values(published.map((r) => {
      const created = when(r.created_at) ?? new Date();
      return {
        repoId: repo.id, publisherId: actor.id, tagName: r.tag_name, lowerTagName: r.tag_name.toLowerCase(), target: r.target_commitish ?? '',
        title: r.name ?? '', note: r.body ?? '', sha1: r.draft ? '' : (tips.get(`refs/tags/${r.tag_name}`) ?? ''), isDraft: r.draft ?? false,
        isPrerelease: r.prerelease ?? false, createdAt: created, publishedAt: r.draft ? undefined : (when(r.published_at) ?? created),
      };
    })).returning({ id: releases.id });
    const files = published.flatMap((r, i) => (f.assets.get(r.id) ?? []).map(({ asset, uuid, size }) => ({
      uuid, repoId: repo.id, releaseId: made[i]!.id, uploaderId: actor.id, name: asset.name, size, downloadCount: asset.download_count ?? 0,
      createdAt: when(asset.created_at) ?? new Date(),
    })));
    if (files.length) await tx.insert(attachments).values(files);
  }
  await tx.update(repositories).set({
    numIssues: tally.issues, numClosedIssues: tally.closedIssues, numPulls: tally.pulls, numClosedPulls: tally.closedPulls,
    numReleases: published.filter((r) => !r.draft).length,
  }).where(eq(repositories.id, repo.id));
}
