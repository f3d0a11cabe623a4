// Badges (Gitea's `badge` and `user_badge`): site administrators give users badges that exist, known by
// their slug. Badges themselves are made with the command line (`anvil admin badge create`), as the API has
// no operation for them (neither has Gitea's).
import { and, asc, eq, inArray } from 'drizzle-orm';
import { badges, userBadges, type BadgeRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { Invalid } from '../errors.js';

export interface NewBadge {
  slug: string;
  description?: string;
  imageUrl?: string;
}

export class BadgeService {
  constructor(private readonly deps: ServiceDeps) {}

  /** A new badge; 422 when its slug is empty or taken. */
  async create(input: NewBadge): Promise<BadgeRow> {
    const slug = input.slug.trim();
    if (!slug) throw new Invalid('[slug]: required');
    const [row] = await this.deps.db.insert(badges)
      .values({ slug, description: input.description ?? '', imageUrl: input.imageUrl ?? '' })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new Invalid(`badge already exists [slug: ${slug}]`);
    return row;
  }

  /** The user's badges, by slug, and how many there are. */
  async listFor(user: UserRow): Promise<{ rows: BadgeRow[]; total: number }> {
    const rows = await this.deps.db.select({ badge: badges }).from(userBadges)
      .innerJoin(badges, eq(badges.id, userBadges.badgeId))
      .where(eq(userBadges.userId, user.id))
      .orderBy(asc(badges.slug));
    return { rows: rows.map((r) => r.badge), total: rows.length };
  }

  /**
   * Gives the user every badge named (Gitea's AddUserBadges): all or none, 422 for a slug no badge has
   * (`badge does not exist [slug: X]`) or a badge the user holds already (`user badge already exists`).
   */
  async add(user: UserRow, slugs: string[]): Promise<void> {
    const wanted = [...new Set(slugs)];
    if (wanted.length === 0) return;
    await withTx(this.deps.db, async (tx) => {
      const found = await tx.select().from(badges).where(inArray(badges.slug, wanted));
      const missing = wanted.find((s) => !found.some((b) => b.slug === s));
      if (missing !== undefined) throw new Invalid(`badge does not exist [slug: ${missing}]`);
      const added = await tx.insert(userBadges)
        .values(found.map((b) => ({ userId: user.id, badgeId: b.id })))
        .onConflictDoNothing()
        .returning({ badgeId: userBadges.badgeId });
      if (added.length !== found.length) {
        const held = found.find((b) => !added.some((a) => a.badgeId === b.id))!;
        throw new Invalid(`user badge already exists [user: ${user.name}, slug: ${held.slug}]`);
      }
    });
  }

  /** Takes the named badges from the user (Gitea's RemoveUserBadges): slugs the user does not hold change nothing. */
  async remove(user: UserRow, slugs: string[]): Promise<void> {
    if (slugs.length === 0) return;
    const ids = this.deps.db.select({ id: badges.id }).from(badges).where(inArray(badges.slug, slugs));
    await this.deps.db.delete(userBadges).where(and(eq(userBadges.userId, user.id), inArray(userBadges.badgeId, ids)));
  }
}
