// `merge-upstream` (#39): a fork's branch brought up to date with its base repository's default branch,
// as Gitea 1.26 does it: a fast-forward when the branch has nothing of its own, else a merge commit by the
// caller. Built without a work tree and moved by compare-and-swap like every other write of a branch,
// then recorded as a push (webhooks, Actions); the branch's protection applies.
import type { UserRow } from '../../db/schema/index.js';
import { GitError } from '../../git/core.js';
import { fetchLocal } from '../../git/fetch.js';
import { commitTree, isAncestor, MergeConflict, mergeTree } from '../../git/merge.js';
import { repoDir } from '../../git/paths.js';
import { moveRef, refTarget } from '../../git/refs.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Conflict, Forbidden, NotFound, RepoArchived } from '../errors.js';
import type { BranchService } from '../git/branches.js';
import { signatureOf } from '../identity.js';
import { withKeyLock } from '../locks.js';
import type { AccessService } from './access.js';
import type { LoadedRepo } from './loadedRepo.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export type MergeStyle = 'fast-forward' | 'merge';

export class MergeUpstreamService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly branches: BranchService,
    private readonly signing: CommitSigning,
  ) {}

  async mergeUpstream(loaded: LoadedRepo, actor: UserRow, input: { branch?: string; ffOnly?: boolean }): Promise<MergeStyle> {
    const { repo } = loaded;
    if (!canWrite(loaded.perm, 'repo.code')) throw new Forbidden('user should have write access to the code');
    if (repo.isArchived) throw new RepoArchived();
    if (!repo.forkId) throw new BadRequest('repository is not a fork');
    const base = (await this.access.reposById([repo.forkId], actor)).get(repo.forkId);
    if (!base || !canRead(base.perm, 'repo.code')) throw new NotFound('the base repository does not exist');
    const branch = input.branch?.trim() || repo.defaultBranch;
    const rule = await this.branches.protections.ruleFor(repo.id, branch);
    if (rule && !(await this.branches.protections.canPush(loaded, rule, actor))) throw new Forbidden(`branch protected [name: ${branch}]`);
    const dir = repoDir(this.deps.config.dataDir, loaded.owner.name, repo.name);
    const baseDir = repoDir(this.deps.config.dataDir, base.owner.name, base.repo.name);
    const ref = `refs/heads/${branch}`;
    const outcome = await withKeyLock(`${dir}\0${branch}`, async () => {
      const [tip, baseTip] = await Promise.all([refTarget(dir, ref), refTarget(baseDir, `refs/heads/${base.repo.defaultBranch}`)]);
      if (!tip) throw new NotFound(`branch "${branch}" does not exist`);
      if (!baseTip) throw new NotFound(`the base repository has no branch "${base.repo.defaultBranch}"`);
      await fetchLocal(dir, baseDir, [baseTip]);
      if (await isAncestor(dir, baseTip, tip)) return { style: 'fast-forward' as const }; // nothing to bring
      let next = baseTip;
      let style: MergeStyle = 'fast-forward';
      if (!(await isAncestor(dir, tip, baseTip))) {
        if (input.ffOnly) throw new Conflict(`branch "${branch}" has commits of its own: it cannot be fast-forwarded`);
        const who = signatureOf(actor, this.deps.config);
        // Signed as a merge is (MERGES): the fork's branch is the base, the upstream's the head.
        const sign = await this.signing.signer('merges', { actor, dir, base: tip, head: baseTip });
        try {
          next = await commitTree(dir, await mergeTree(dir, tip, baseTip), [tip, baseTip],
            `Merge branch '${base.repo.defaultBranch}' of ${base.owner.name}/${base.repo.name} into ${branch}`, who, who, undefined, sign);
        } catch (err) {
          if (err instanceof MergeConflict) throw new Conflict(`merge failed because of conflict: ${err.paths.join(', ')}`);
          throw err;
        }
        style = 'merge';
      }
      try {
        await moveRef(dir, ref, next, tip);
      } catch (err) {
        if (err instanceof GitError) throw new Conflict('the branch moved meanwhile; try again');
        throw err;
      }
      return { style, move: { ref, before: tip, after: next }, known: [tip] };
    });
    if (outcome.move) {
      const move = outcome.move;
      await this.branches.recordOrUndo(loaded, [move], () => this.branches.refsChanged(loaded, actor.id, [move], outcome.known));
    }
    return outcome.style;
  }
}
