// People and their relations to each other: who follows whom, and who blocked whom. The follower counts
// on `users` are kept by a trigger on `follows` (see the migration), so that every insert and delete,
// cascades included, keeps them exact.
import { bigint, bigserial, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const userCol = (name: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** `userId` follows `followId` (a user or an organization). */
export const follows = pgTable(
  'follows',
  {
    userId: userCol('user_id'),
    followId: userCol('follow_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.followId] }), index('follows_follow_idx').on(t.followId, t.userId)],
);

/** `blockerId` (a user or an organization) blocked `blockeeId` (Gitea 1.21's user blocking). */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: userCol('blocker_id'),
    blockeeId: userCol('blockee_id'),
    note: text('note').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockeeId] }), index('user_blocks_blockee_idx').on(t.blockeeId, t.blockerId)],
);

export type FollowRow = typeof follows.$inferSelect;
export type UserBlockRow = typeof userBlocks.$inferSelect;

/** A badge site administrators may give users (Gitea's `badge`): known by its unique slug. */
export const badges = pgTable(
  'badges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
  },
  (t) => [uniqueIndex('badges_slug_idx').on(t.slug)],
);

/** `userId` holds the badge `badgeId` (Gitea's `user_badge`), once. */
export const userBadges = pgTable(
  'user_badges',
  {
    userId: userCol('user_id'),
    badgeId: bigint('badge_id', { mode: 'number' }).notNull().references(() => badges.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.badgeId] }), index('user_badges_badge_idx').on(t.badgeId)],
);

export type BadgeRow = typeof badges.$inferSelect;
