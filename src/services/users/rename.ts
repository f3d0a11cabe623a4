// Renaming a user or an organization (Gitea's user_service.RenameUser): the row and the folder of its
// repositories, which is named after the owner; the folder moves inside the transaction that holds the
// updated row, and moves back if the transaction fails.
import { existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { and, eq, ne } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { repoDir } from '../../git/paths.js';
import type { ServiceDeps } from '../context.js';
import { Invalid, isUniqueViolation } from '../errors.js';
import { checkOwnerName } from '../names.js';
import { recordUserRedirect } from '../repos/redirects.js';

/** `field` names the request property in messages (`new_name`, `new_username`). */
export async function renameAccount(deps: ServiceDeps, account: UserRow, newName: string, field: string): Promise<void> {
  if (newName === account.name) return;
  checkOwnerName(newName, field);
  const lower = newName.toLowerCase();
  const taken = () => new Invalid(`user already exists [name: ${newName}]`);
  const clash = async (db: typeof deps.db) =>
    (await db.select({ id: users.id }).from(users).where(and(eq(users.lowerName, lower), ne(users.id, account.id))).limit(1)).length > 0;
  if (await clash(deps.db)) throw taken();

  const { dataDir } = deps.config;
  const from = dirname(repoDir(dataDir, account.name, 'x'));
  const to = dirname(repoDir(dataDir, newName, 'x'));
  let moved = false;
  try {
    await withTx(deps.db, async (tx) => {
      if (await clash(tx)) throw taken();
      await tx.update(users).set({ name: newName, lowerName: lower, updatedAt: new Date() }).where(eq(users.id, account.id));
      // The old name keeps leading here (Gitea's NewUserRedirect); a change of case alone needs none.
      if (lower !== account.lowerName) await recordUserRedirect(tx, account.name, account.id);
      // The row now holds the new name, so nothing else can create a folder under it meanwhile.
      if (from !== to && existsSync(from)) {
        renameSync(from, to);
        moved = true;
      }
    });
  } catch (err) {
    if (moved) renameSync(to, from);
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}
