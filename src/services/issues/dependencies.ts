// Issue dependencies and blocks (#38): an issue depends on (is blocked by) others, across repositories
// the caller can see; a closed dependency stops blocking, an open one keeps the issue from being closed.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { comments, issueDependencies, issues, type IssueRow, type RepoRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, NotFound, RepoArchived } from '../errors.js';
import type { AccessService } from '../repos/access.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { canWriteIssue, issueUnit, type IssueService } from './issues.js';

type Page = { limit: number; offset: number };
/** `dependencies`: the issues this one depends on; `blocks`: the issues that depend on this one. */
export type DependencySide = 'dependencies' | 'blocks';
export type IssueInRepo = { issue: IssueRow; repo: RepoRow; owner: UserRow };

export class DependencyService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly issues: IssueService,
  ) {}

  /**
   * The issue's dependencies or the issues it blocks, oldest link first, leaving out those the caller
   * cannot read. Dependencies of a repository with dependencies switched off are not there (404), as Gitea.
   */
  async list(loaded: LoadedRepo, index: number, side: DependencySide, actor: UserRow | null, page: Page): Promise<{ rows: IssueInRepo[]; total: number }> {
    if (side === 'dependencies' && !loaded.repo.enableIssueDependencies) throw new NotFound();
    const issue = await this.issues.load(loaded, index);
    const [mine, other] = side === 'dependencies' ? [issueDependencies.issueId, issueDependencies.dependencyId] : [issueDependencies.dependencyId, issueDependencies.issueId];
    const linked = await this.deps.db.select({ issue: issues }).from(issueDependencies).innerJoin(issues, eq(issues.id, other))
      .where(eq(mine, issue.id)).orderBy(asc(issueDependencies.createdAt), asc(issues.id));
    const repos = await this.access.reposById([...new Set(linked.map((l) => l.issue.repoId))], actor);
    const visible: IssueInRepo[] = [];
    for (const { issue: i } of linked) {
      const r = repos.get(i.repoId);
      if (r && canRead(r.perm, issueUnit(i.isPull))) visible.push({ issue: i, repo: r.repo, owner: r.owner });
    }
    return { rows: visible.slice(page.offset, page.offset + page.limit), total: visible.length };
  }

  /**
   * Makes `target` depend on `dependency` (or removes that). The caller writes the target's issues or pull
   * requests (403 when they only read it) and reads the dependency (404 otherwise); the target's
   * repository has dependencies on (404 otherwise, as Gitea) and is not archived (423).
   */
  async change(
    target: { loaded: LoadedRepo; index: number }, dependency: { loaded: LoadedRepo; index: number }, actor: UserRow, add: boolean,
  ): Promise<void> {
    const t = await this.issues.load(target.loaded, target.index);
    const d = await this.issues.load(dependency.loaded, dependency.index);
    if (!target.loaded.repo.enableIssueDependencies) throw new NotFound();
    if (!canWriteIssue(target.loaded.perm, t.isPull)) throw new Forbidden('user should have permission to write the issue the dependency is added to');
    if (target.loaded.repo.isArchived) throw new RepoArchived();
    if (!add) {
      await withTx(this.deps.db, async (tx) => {
        const gone = await tx.delete(issueDependencies).where(and(eq(issueDependencies.issueId, t.id), eq(issueDependencies.dependencyId, d.id)))
          .returning({ id: issueDependencies.issueId });
        if (gone.length) await dependencyComments(tx, actor, t, d, 'remove_dependency');
      });
      return;
    }
    if (t.id === d.id) throw new Conflict('an issue cannot depend on itself');
    await withTx(this.deps.db, async (tx) => {
      // Both issues' rows in id order: two opposite links made at once cannot both pass the circle check.
      await tx.select({ id: issues.id }).from(issues).where(sql`${issues.id} in (${t.id}, ${d.id})`).orderBy(issues.id).for('update');
      const [circle] = await tx.select({ one: sql`1` }).from(issueDependencies)
        .where(and(eq(issueDependencies.issueId, d.id), eq(issueDependencies.dependencyId, t.id))).limit(1);
      if (circle) throw new Conflict('circular dependencies are not allowed: the dependency depends on this issue');
      const [made] = await tx.insert(issueDependencies).values({ issueId: t.id, dependencyId: d.id, userId: actor.id }).onConflictDoNothing().returning();
      if (!made) throw new Conflict('the dependency exists already');
      await dependencyComments(tx, actor, t, d, 'add_dependency');
    });
  }
}

/** Gitea's createIssueDependencyComment: one entry on each issue, naming the other one. */
async function dependencyComments(tx: Db, actor: UserRow, issue: IssueRow, dependency: IssueRow, type: 'add_dependency' | 'remove_dependency'): Promise<void> {
  await tx.insert(comments).values([
    { issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type, dependentIssueId: dependency.id },
    { issueId: dependency.id, repoId: dependency.repoId, posterId: actor.id, type, dependentIssueId: issue.id },
  ]);
}
