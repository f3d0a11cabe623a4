// Users' GPG keys: a primary key row and a row per subkey (primary_key_id set), each key id unique among
// all keys. The identity e-mails are the primary key's; whether each is the owner's activated address is
// decided when the key is shown.
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const gpgKeys = pgTable(
  'gpg_keys',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 16 upper-case hex digits. */
    keyId: text('key_id').notNull(),
    /** The primary key's id for a subkey; empty for a primary key. */
    primaryKeyId: text('primary_key_id').notNull().default(''),
    /** The armored public key as given (primary keys; empty for subkeys). */
    content: text('content').notNull().default(''),
    emails: jsonb('emails').$type<string[]>().notNull().default([]),
    canSign: boolean('can_sign').notNull(),
    canEncryptComms: boolean('can_encrypt_comms').notNull(),
    canEncryptStorage: boolean('can_encrypt_storage').notNull(),
    canCertify: boolean('can_certify').notNull(),
    /** Possession proven by a signed token. */
    verified: boolean('verified').notNull().default(false),
    /** The key's own creation time. */
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at'),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('gpg_keys_key_id_key').on(t.keyId), index('gpg_keys_owner_idx').on(t.ownerId, t.primaryKeyId, t.id)],
);

export type GpgKeyRow = typeof gpgKeys.$inferSelect;
