// The one rule of issue dependencies that closing an issue needs (its own module: the dependency service
// imports the issue service, which closes issues).
import { and, eq, sql } from 'drizzle-orm';
import { issueDependencies, issues } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { PreconditionFailed } from '../errors.js';

type Db = ServiceDeps['db'];

/** Gitea's ErrDependenciesLeft: closing an issue (or merging a pull request) with open dependencies. */
export async function refuseOpenDependencies(tx: Db, issueId: number): Promise<void> {
  if (await hasOpenDependencies(tx, issueId)) throw new PreconditionFailed('cannot close this issue or pull request because it still has open dependencies');
}

/** Whether an issue (or pull request) depends on an issue that is still open. */
export async function hasOpenDependencies(tx: Db, issueId: number): Promise<boolean> {
  const [open] = await tx.select({ one: sql`1` }).from(issueDependencies)
    .innerJoin(issues, eq(issues.id, issueDependencies.dependencyId))
    .where(and(eq(issueDependencies.issueId, issueId), eq(issues.isClosed, false))).limit(1);
  return !!open;
}
