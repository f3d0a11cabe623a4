// git over HTTP: who may fetch from or push to a repository (the API's permission model, read or write
// on the code unit), and what a push changes in the repository's row.
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { repositories, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { repoDir } from '../../git/paths.js';
import { listBranches, setHead } from '../../git/refs.js';
import { advertiseRefs, serviceRpc, type GitService } from '../../git/smartHttp.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import type { BranchService } from './branches.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound, Unauthorized } from '../errors.js';
import type { LoadedRepo, RepoService } from '../repos/repos.js';
import { scopesAllow } from '../users/tokens.js';

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

export class GitTransportService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly repos: RepoService,
    private readonly branches: BranchService,
  ) {}

  /**
   * The repository, if the caller may run `service` on it. Anonymous callers get Unauthorized (so git
   * asks for credentials) for anything beyond fetching a repository anyone may read, existing or not;
   * signed-in callers get NotFound for what they may not see and Forbidden for pushes they may not make.
   */
  async open(ownerName: string, name: string, caller: TransportCaller, service: GitService): Promise<LoadedRepo> {
    const push = isPush(service);
    const loaded = await this.repos.load(ownerName, name, caller.actor).catch((err: unknown) => {
      if (err instanceof NotFound) return undefined;
      throw err;
    });
    const readable = !!loaded && canRead(loaded.perm, 'repo.code');
    if (!caller.actor) {
      if (!readable || push) throw new Unauthorized('Authentication required');
      return loaded!;
    }
    if (!readable) throw new NotFound('Repository not found');
    if (caller.tokenScopes && !scopesAllow(caller.tokenScopes, 'repository', push)) {
      throw new Forbidden(`token does not have at least one of required scope(s): [${push ? 'write' : 'read'}:repository]`);
    }
    if (push) {
      if (!canWrite(loaded!.perm, 'repo.code')) throw new Forbidden('User permission denied: you may not push to this repository');
      if (loaded!.repo.isArchived) throw new Forbidden('This repository is archived: it can be cloned but not pushed to');
      if (loaded!.repo.isMirror) throw new Forbidden('This repository is a mirror: it cannot be pushed to');
    }
    return loaded!;
  }

  /** The ref advertisement for `GET info/refs?service=…`. */
  advertise(loaded: LoadedRepo, service: GitService, stream: TransportStream = {}): Readable {
    return advertiseRefs(this.dir(loaded), service, stream);
  }

  /** Runs `service` on the request body; after a push, the repository's row follows its branches. */
  async rpc(loaded: LoadedRepo, service: GitService, input: Readable, stream: TransportStream = {}): Promise<Readable> {
    const dir = this.dir(loaded);
    if (!isPush(service)) return serviceRpc(dir, service, input, stream);
    const before = await listBranches(dir);
    return serviceRpc(dir, service, input, { ...stream, afterExit: () => this.afterPush(loaded, before) });
  }

  /**
   * Recounts the branches from git. A push that leaves HEAD on a missing branch (the first push into
   * an empty repository) makes the configured default branch, if pushed, or else the first new branch
   * the default.
   */
  private async afterPush(loaded: LoadedRepo, before: string[]): Promise<void> {
    const dir = this.dir(loaded);
    const branches = await listBranches(dir);
    let defaultBranch = loaded.repo.defaultBranch;
    if (branches.length && !branches.includes(defaultBranch)) {
      defaultBranch = branches.find((b) => !before.includes(b)) ?? branches[0]!;
      await setHead(dir, defaultBranch);
    }
    await withTx(this.deps.db, async (tx) => {
      await tx
        .update(repositories)
        .set({ isEmpty: branches.length === 0, numBranches: branches.length, defaultBranch, updatedAt: new Date() })
        .where(eq(repositories.id, loaded.repo.id));
    });
    await this.branches.changed(loaded.repo.id, dir);
  }

  private dir(loaded: LoadedRepo): string {
    return repoDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
  }
}
