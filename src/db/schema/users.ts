// Users, organizations and bots share one table, as in Gitea: they share one namespace of names.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const userTypes = ['User', 'Organization', 'Bot'] as const;
export type UserType = (typeof userTypes)[number];
export const visibilities = ['public', 'limited', 'private'] as const;
export type Visibility = (typeof visibilities)[number];

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    lowerName: text('lower_name').notNull(),
    type: text('type').$type<UserType>().notNull().default('User'),
    fullName: text('full_name').notNull().default(''),
    /** Primary e-mail; mirrors the primary row of email_addresses. Empty for organizations without one. */
    email: text('email').notNull().default(''),
    keepEmailPrivate: boolean('keep_email_private').notNull().default(false),
    /** `scrypt$N$r$p$salt$hash`; empty for organizations and users who cannot sign in with a password. */
    passwordHash: text('password_hash').notNull().default(''),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    loginSource: bigint('login_source', { mode: 'number' }).notNull().default(0),
    loginName: text('login_name').notNull().default(''),
    location: text('location').notNull().default(''),
    website: text('website').notNull().default(''),
    description: text('description').notNull().default(''),
    language: text('language').notNull().default(''),
    /** The web theme and diff layout a user chose (Gitea's user settings; only stored and answered here). */
    theme: text('theme').notNull().default('gitea-auto'),
    diffViewStyle: text('diff_view_style').notNull().default(''),
    /** Hides the user's activity (heatmap) from everyone but themself and site administrators. */
    keepActivityPrivate: boolean('keep_activity_private').notNull().default(false),
    visibility: text('visibility').$type<Visibility>().notNull().default('public'),
    isActive: boolean('is_active').notNull().default(true),
    isAdmin: boolean('is_admin').notNull().default(false),
    isRestricted: boolean('is_restricted').notNull().default(false),
    prohibitLogin: boolean('prohibit_login').notNull().default(false),
    allowCreateOrganization: boolean('allow_create_organization').notNull().default(true),
    /** Gitea's AllowGitHook: may write repositories' git hooks when DISABLE_GIT_HOOKS is false (site administrators always may). */
    allowGitHook: boolean('allow_git_hook').notNull().default(false),
    /** -1: the site default. */
    maxRepoCreation: integer('max_repo_creation').notNull().default(-1),
    repoAdminChangeTeamAccess: boolean('repo_admin_change_team_access').notNull().default(false),
    numFollowers: integer('num_followers').notNull().default(0),
    numFollowing: integer('num_following').notNull().default(0),
    numStars: integer('num_stars').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [uniqueIndex('users_lower_name_key').on(t.lowerName), index('users_type_idx').on(t.type)],
);

export const emailAddresses = pgTable(
  'email_addresses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    lowerEmail: text('lower_email').notNull(),
    isActivated: boolean('is_activated').notNull().default(false),
    isPrimary: boolean('is_primary').notNull().default(false),
  },
  (t) => [
    uniqueIndex('email_addresses_lower_email_key').on(t.lowerEmail),
    index('email_addresses_user_idx').on(t.userId),
    uniqueIndex('email_addresses_one_primary').on(t.userId).where(sql`${t.isPrimary}`),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Hex SHA-256 of the token: the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    tokenLastEight: text('token_last_eight').notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('access_tokens_hash_key').on(t.tokenHash),
    uniqueIndex('access_tokens_user_name_key').on(t.userId, t.name),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type AccessTokenRow = typeof accessTokens.$inferSelect;

/**
 * Wrong passwords per account, for sign-in throttling: after a run of failures each further attempt
 * waits longer (capped), in every process on the database. A success or a quiet spell clears it.
 */
export const loginThrottles = pgTable('login_throttles', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  failures: integer('failures').notNull(),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true, mode: 'date' }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
});
