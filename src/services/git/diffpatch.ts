// Applies a unified diff to a branch without a work tree. Concurrent patches to one branch are
// serialised by the ref's compare-and-swap: a loser re-applies on the new tip, so no commit is lost.
import { commitPatch, PatchDoesNotApply } from '../../git/apply.js';
import { GitError } from '../../git/core.js';
import { zeroIdLike, type Signature } from '../../git/commit.js';
import { readCommit, type CommitData } from '../../git/objects.js';
import { createRef, moveRef, refTarget } from '../../git/refs.js';
import type { UserRow } from '../../db/schema/index.js';
import type { BranchService } from './branches.js';
import { requireCodeWriter } from './branches.js';
import type { ServiceDeps } from '../context.js';
import { checkTargetBranch, commitMessage, commitPeople } from './commitOptions.js';
import { Conflict, Invalid, NotFound, RepoArchived } from '../errors.js';
import { withKeyLock } from '../locks.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { RefChange } from '../../git/pushLog.js';
import type { DomainEvent } from '../events/types.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export interface DiffPatchInput {
  content: string;
  branch?: string;
  newBranch?: string;
  forcePush?: boolean;
  message?: string;
  author?: { name?: string; email?: string };
  committer?: { name?: string; email?: string };
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
}

const attempts = 8;

export class DiffPatchService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly branches: BranchService,
    private readonly signing: CommitSigning,
  ) {}

  async apply(loaded: LoadedRepo, actor: UserRow, input: DiffPatchInput): Promise<CommitData> {
    const { repo } = loaded;
    if (repo.isArchived || repo.isMirror) throw new RepoArchived('repo is not allowed to edit');
    requireCodeWriter(loaded);
    const base = input.branch || repo.defaultBranch;
    const target = input.newBranch || base;
    // A protected target branch takes patches from those who may push to it (Gitea: 403).
    await checkTargetBranch(this.branches, loaded, actor, base, target);
    const dir = this.branches.dir(loaded);
    const baseTip = await refTarget(dir, `refs/heads/${base}`);
    if (!baseTip) throw new NotFound(`branch does not exist [name: ${base}]`);
    const newBranch = target !== base;
    if (newBranch && !input.forcePush && (await refTarget(dir, `refs/heads/${target}`))) {
      throw new Invalid(`branch already exists [name: ${target}]`);
    }
    const { author, committer } = commitPeople(actor, this.deps.config, input);
    const message = commitMessage(input, 'apply-patch', committer);

    return withKeyLock(`${dir}\0${target}`, () => this.commitWithRetries(dir, { base, baseTip, target, newBranch, input, message, author, committer, loaded, actor }));
  }

  private async commitWithRetries(
    dir: string,
    a: { base: string; baseTip: string; target: string; newBranch: boolean; input: DiffPatchInput; message: string; author: Signature; committer: Signature; loaded: LoadedRepo; actor: UserRow },
  ): Promise<CommitData> {
    const { base, baseTip, target, newBranch, input, message, author, committer, loaded, actor } = a;
    for (let attempt = 0; attempt < attempts; attempt++) {
      // A patch onto the same branch builds on its current tip; a new branch starts from the base.
      // (On the first attempt the tip read a moment ago; a retry reads it again.)
      const parent = newBranch || attempt === 0 ? baseTip : ((await refTarget(dir, `refs/heads/${base}`)) ?? baseTip);
      let id: string;
      try {
        const sign = await this.signing.signer('crudActions', { actor, dir, parent });
        id = await commitPatch(dir, { parent, patch: input.content, message, author, committer, sign });
      } catch (err) {
        if (err instanceof PatchDoesNotApply) throw new Invalid(`patch does not apply: ${err.message}`);
        throw err;
      }
      // The commits the change brings are read from git while the ref moves (both are git processes).
      let events: Promise<DomainEvent[]> | undefined;
      let move: RefChange | undefined;
      const eventsFrom = (before: string) => {
        move = { ref: `refs/heads/${target}`, before, after: id };
        events = this.branches.refEvents(loaded, actor.id, [move], [baseTip]);
        events.catch(() => undefined); // awaited below when the ref moved; dropped when it did not
      };
      try {
        if (newBranch) {
          const existing = await refTarget(dir, `refs/heads/${target}`);
          eventsFrom(existing ?? zeroIdLike(id));
          if (existing && input.forcePush) await moveRef(dir, `refs/heads/${target}`, id, existing);
          else await createRef(dir, `refs/heads/${target}`, id);
        } else {
          eventsFrom(parent);
          await moveRef(dir, `refs/heads/${target}`, id, parent);
        }
      } catch (err) {
        if (!(err instanceof GitError)) throw err;
        if (newBranch && !input.forcePush) throw new Invalid(`branch already exists [name: ${target}]`);
        continue; // the branch moved under us: rebuild on its new tip
      }
      await this.branches.recordOrUndo(loaded, [move!], async () => this.branches.recordRefEvents(loaded, actor.id, await events!));
      return readCommit(dir, id);
    }
    throw new Conflict('the branch kept changing while the patch was applied; try again');
  }
}
