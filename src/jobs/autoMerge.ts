// The auto-merge worker: looks at the merges scheduled with `merge_when_checks_succeed` and merges those
// whose head's commit statuses now pass, as the user who scheduled them; and completes (or releases) merges
// whose process died after claiming them (MergeService.settlePending). A status written in this process
// wakes it at once; statuses written elsewhere (another process, Actions) are seen at the next poll. Two
// processes may both try: the merge's claim on the pull request lets one merge, once.
import { and, eq, isNotNull } from 'drizzle-orm';
import { issues, pullAutoMerges, pullRequests, repositories, users } from '../db/schema/index.js';
import type { ServiceDeps } from '../services/context.js';
import { statusReported } from '../services/git/statuses.js';
import type { AccessService } from '../services/repos/access.js';
import { Conflict } from '../services/errors.js';
import type { MergeService, MergeStyle } from '../services/pulls/merge.js';
import type { PullService } from '../services/pulls/pulls.js';
import { PollingWorker } from './pollingWorker.js';

export class AutoMergeWorker extends PollingWorker {
  /** Pull request → the base and head tips a merge failed on (not tried again until one moves). */
  private readonly failed = new Map<number, string>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly pulls: PullService,
    private readonly merges: MergeService,
    private readonly access: AccessService,
  ) {
    super(deps.log.child({ worker: 'auto-merge' }), statusReported, () => deps.config.autoMergePollMs, Number.MAX_SAFE_INTEGER);
  }

  /** One look at every scheduled merge of an open pull request; answers how many merged. */
  async runOnce(): Promise<number> {
    const { db } = this.deps;
    const rows = await db
      .select({ auto: pullAutoMerges, pull: pullRequests, issue: issues, repo: repositories })
      .from(pullAutoMerges)
      .innerJoin(pullRequests, eq(pullRequests.id, pullAutoMerges.pullId))
      .innerJoin(issues, eq(issues.id, pullRequests.issueId))
      .innerJoin(repositories, eq(repositories.id, pullRequests.repoId))
      .where(and(eq(pullRequests.merged, false), eq(issues.isClosed, false)));
    let merged = 0;
    await this.settleAbandoned();
    for (const { auto, pull, issue, repo } of rows) {
      try {
        const [owner] = await db.select().from(users).where(eq(users.id, repo.ownerId));
        const [doer] = await db.select().from(users).where(eq(users.id, auto.doerId));
        if (!owner || !doer) continue;
        const target = { repo, owner };
        const ends = await this.pulls.ends(target, { pull, issue });
        const key = `${ends.baseTip}:${ends.headTip}`;
        if (this.failed.get(pull.id) === key || !(await this.merges.ready(target, { pull, issue }))) continue;
        const perm = await this.access.repoPermission(repo, owner, doer);
        try {
          await this.merges.runScheduled({ repo, owner, perm }, { pull, issue }, doer, {
            style: auto.style as MergeStyle, message: auto.message, deleteBranch: auto.deleteBranchAfterMerge,
          });
          this.failed.delete(pull.id);
          merged++;
        } catch (err) {
          // A conflict is not tried again until a branch moves; a rule that blocks is looked at each round.
          if (err instanceof Conflict) this.failed.set(pull.id, key);
          this.log.info({ pull: pull.id, err: (err as Error).message }, 'scheduled merge not possible yet');
        }
      } catch (err) {
        this.log.warn({ err, pull: pull.id }, 'auto-merge check failed');
      }
    }
    return merged;
  }

  /** Merges whose process died while they ran: completed when their commit reached the base, else released. */
  private async settleAbandoned(): Promise<void> {
    const { db } = this.deps;
    const rows = await db
      .select({ pull: pullRequests, repo: repositories, owner: users })
      .from(pullRequests)
      .innerJoin(repositories, eq(repositories.id, pullRequests.repoId))
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(and(isNotNull(pullRequests.mergePending), eq(pullRequests.merged, false)));
    for (const { pull, repo, owner } of rows) {
      await this.merges.settlePending({ repo, owner }, pull).catch((err: Error) => this.log.warn({ err: err.message, pull: pull.id }, 'could not settle an abandoned merge'));
    }
  }
}
