// Editing and deleting an organization (its owners and site administrators).
import { and, count, eq } from 'drizzle-orm';
import {
  actionRunners, actionRunnerTokens, activities, activityTallies, hooks, repositories, users, type UserRow, type Visibility,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { OrgViewer } from '../../permissions/org.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound } from '../errors.js';
import { checkEmail } from '../names.js';
import { discardAvatar } from '../users/avatars.js';

export interface EditOrgInput {
  fullName?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility | '';
  repoAdminChangeTeamAccess?: boolean;
}

function checkOwner(viewer: OrgViewer): void {
  if (!viewer.user?.isAdmin && !viewer.isOwner) throw new Forbidden('Must be an organization owner');
}

/** Only the fields given change; an empty visibility leaves it as it is. */
export async function editOrganization(deps: ServiceDeps, org: UserRow, viewer: OrgViewer, input: EditOrgInput): Promise<UserRow> {
  checkOwner(viewer);
  if (input.email) checkEmail(input.email);
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  if (input.fullName !== undefined) set.fullName = input.fullName;
  if (input.email !== undefined) set.email = input.email;
  if (input.description !== undefined) set.description = input.description;
  if (input.website !== undefined) set.website = input.website;
  if (input.location !== undefined) set.location = input.location;
  if (input.visibility) set.visibility = input.visibility;
  if (input.repoAdminChangeTeamAccess !== undefined) set.repoAdminChangeTeamAccess = input.repoAdminChangeTeamAccess;
  const [row] = await deps.db.update(users).set(set).where(and(eq(users.id, org.id), eq(users.type, 'Organization'))).returning();
  if (!row) throw new NotFound();
  return row;
}

/**
 * Deletes an organization that owns no repository (Gitea refuses too: its repositories go first, by
 * delete or transfer). Teams, their units and members, memberships, labels and projects cascade with the
 * row; webhooks, runners, registration tokens and feed rows addressed by owner id go in the same transaction.
 */
export async function deleteOrganization(deps: ServiceDeps, org: UserRow, viewer: OrgViewer): Promise<void> {
  checkOwner(viewer);
  await withTx(deps.db, async (tx) => {
    // Locked first: a repository being created for the organization holds a key-share lock on this row,
    // so the count below sees it, or its insert waits and then fails on the deleted owner.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, org.id)).for('update');
    const [owned] = await tx.select({ n: count() }).from(repositories).where(eq(repositories.ownerId, org.id));
    if (owned && owned.n > 0) throw new Invalid(`organization still has ownership of repositories [uid: ${org.id}, count: ${owned.n}]`);
    await tx.delete(hooks).where(eq(hooks.ownerId, org.id));
    await tx.delete(actionRunners).where(and(eq(actionRunners.ownerId, org.id), eq(actionRunners.repoId, 0)));
    await tx.delete(actionRunnerTokens).where(and(eq(actionRunnerTokens.ownerId, org.id), eq(actionRunnerTokens.repoId, 0)));
    await tx.delete(activities).where(eq(activities.ownerId, org.id));
    await tx.delete(activityTallies).where(eq(activityTallies.ownerId, org.id));
    await tx.delete(users).where(eq(users.id, org.id));
  });
  await discardAvatar(deps, org.id);
}
