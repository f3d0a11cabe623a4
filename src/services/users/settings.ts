// The signed-in user's settings (Gitea's /user/settings): profile fields and preferences, only the
// fields given change.
import { eq } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';

export interface UserSettingsInput {
  fullName?: string;
  website?: string;
  description?: string;
  location?: string;
  language?: string;
  theme?: string;
  diffViewStyle?: string;
  hideEmail?: boolean;
  hideActivity?: boolean;
}

export async function updateUserSettings(deps: ServiceDeps, user: UserRow, input: UserSettingsInput): Promise<UserRow> {
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  if (input.fullName !== undefined) set.fullName = input.fullName;
  if (input.website !== undefined) set.website = input.website;
  if (input.description !== undefined) set.description = input.description;
  if (input.location !== undefined) set.location = input.location;
  if (input.language !== undefined) set.language = input.language;
  if (input.theme !== undefined) set.theme = input.theme;
  if (input.diffViewStyle !== undefined) set.diffViewStyle = input.diffViewStyle;
  if (input.hideEmail !== undefined) set.keepEmailPrivate = input.hideEmail;
  if (input.hideActivity !== undefined) set.keepActivityPrivate = input.hideActivity;
  const [row] = await deps.db.update(users).set(set).where(eq(users.id, user.id)).returning();
  return row!;
}
