// SSH public keys: a user's keys, and deploy keys (one public key may be a deploy key of several
// repositories; it goes when the last one lets it go). A key's fingerprint is unique among all keys.
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const publicKeyTypes = ['user', 'deploy'] as const;
export type PublicKeyType = (typeof publicKeyTypes)[number];

export const publicKeys = pgTable(
  'public_keys',
  {
    id: id(),
    /** The user of a user key; null for a deploy key. */
    ownerId: bigint('owner_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<PublicKeyType>().notNull(),
    name: text('name').notNull(),
    /** `SHA256:` and the unpadded base64 SHA-256 of the key blob, as `ssh-keygen -lf` prints it. */
    fingerprint: text('fingerprint').notNull(),
    /** `<algorithm> <base64 blob>`, without the comment. */
    content: text('content').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('public_keys_fingerprint_key').on(t.fingerprint), index('public_keys_owner_idx').on(t.ownerId, t.id)],
);

export const deployKeys = pgTable(
  'deploy_keys',
  {
    id: id(),
    keyId: bigint('key_id', { mode: 'number' })
      .notNull()
      .references(() => publicKeys.id, { onDelete: 'cascade' }),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    lowerName: text('lower_name').notNull(),
    readOnly: boolean('read_only').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deploy_keys_repo_key_key').on(t.repoId, t.keyId),
    uniqueIndex('deploy_keys_repo_name_key').on(t.repoId, t.lowerName),
    index('deploy_keys_key_idx').on(t.keyId),
  ],
);

export type PublicKeyRow = typeof publicKeys.$inferSelect;
export type DeployKeyRow = typeof deployKeys.$inferSelect;
