// OAuth2 applications, the OAuth2/OpenID Connect provider's records, web sign-in sessions and TOTP
// second factors (#36). Every process shares them: nothing of the provider lives only in memory.
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A user's OAuth2 application (Gitea's oauth2_application); the secret is kept as its SHA-256 only. */
export const oauth2Applications = pgTable(
  'oauth2_applications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    clientId: text('client_id').notNull().unique(),
    /** SHA-256 (hex) of the secret shown once; empty for public clients' never-used secret. */
    clientSecretHash: text('client_secret_hash').notNull(),
    confidentialClient: boolean('confidential_client').notNull().default(true),
    skipSecondaryAuthorization: boolean('skip_secondary_authorization').notNull().default(false),
    redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('oauth2_applications_user_idx').on(t.userId, t.id)],
);

/**
 * What oidc-provider stores through its Adapter (sessions, interactions, grants, codes, access and refresh
 * tokens), one row per model instance. The columns beside the payload are what it is looked up by.
 */
export const oauth2Models = pgTable(
  'oauth2_models',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    clientId: text('client_id'),
    accountId: text('account_id'),
    expiresAt: ts('expires_at'),
    consumedAt: ts('consumed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('oauth2_models_grant_idx').on(t.grantId),
    index('oauth2_models_uid_idx').on(t.uid),
    index('oauth2_models_client_idx').on(t.clientId),
    index('oauth2_models_account_idx').on(t.accountId, t.kind),
    index('oauth2_models_expires_idx').on(t.expiresAt),
  ],
);

/** The provider's signing keys (JWKS) and cookie keys: made once by the first process, shared by all. */
export const oauth2Keys = pgTable('oauth2_keys', {
  id: integer('id').primaryKey(),
  jwks: jsonb('jwks').$type<{ keys: Record<string, unknown>[] }>().notNull(),
  cookieKeys: jsonb('cookie_keys').$type<string[]>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** A browser's sign-in: the cookie holds a random id, the row its SHA-256. */
export const webSessions = pgTable(
  'web_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The password was right but the second factor is still to come. */
    twoFactorPending: boolean('two_factor_pending').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('web_sessions_user_idx').on(t.userId), index('web_sessions_expires_idx').on(t.expiresAt)],
);

/** TOTP enrolment (Gitea's two_factor): the shared secret, the scratch code's hash, the last passcode used. */
export const twoFactors = pgTable('two_factors', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  scratchHash: text('scratch_hash').notNull(),
  lastUsedPasscode: text('last_used_passcode'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type OAuth2ApplicationRow = typeof oauth2Applications.$inferSelect;
export type OAuth2ModelRow = typeof oauth2Models.$inferSelect;
export type TwoFactorRow = typeof twoFactors.$inferSelect;
