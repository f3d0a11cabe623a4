// The package registry (Gitea's packages): a package is a name of one type under an owner (user or
// organization), optionally linked to one of the owner's repositories; it has versions, each with files.
// A file's bytes are a blob, kept once in the `packages` store keyed by its sha256, whatever the number
// of files (of any version, owner or type) that hold the same content.
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const packages = pgTable(
  'packages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The linked repository (of the same owner); unlinked when it goes. */
    repoId: bigint('repo_id', { mode: 'number' }).references(() => repositories.id, { onDelete: 'set null' }),
    /** `generic`, `npm`, `pypi`, `container`. */
    type: text('type').notNull(),
    name: text('name').notNull(),
    lowerName: text('lower_name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('packages_owner_type_name_key').on(t.ownerId, t.type, t.lowerName)],
);

export type PackageRow = typeof packages.$inferSelect;

export const packageVersions = pgTable(
  'package_versions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    packageId: bigint('package_id', { mode: 'number' }).notNull().references(() => packages.id, { onDelete: 'cascade' }),
    /** Who published it; kept when the account goes (the API shows the ghost user). */
    creatorId: bigint('creator_id', { mode: 'number' }).notNull(),
    version: text('version').notNull(),
    lowerVersion: text('lower_version').notNull(),
    /** The format's metadata (npm's package.json, PyPI's core metadata, …). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * A version the registry keeps for itself, never listed (Gitea's is_internal): a container image's
     * `_upload`, which holds the blobs pushed to the image before a manifest names them.
     */
    isInternal: boolean('is_internal').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('package_versions_package_version_key').on(t.packageId, t.lowerVersion),
    index('package_versions_package_created_idx').on(t.packageId, t.createdAt, t.id),
  ],
);

export type PackageVersionRow = typeof packageVersions.$inferSelect;

export const packageBlobs = pgTable(
  'package_blobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    md5: text('md5').notNull(),
    sha1: text('sha1').notNull(),
    sha512: text('sha512').notNull(),
    /** Refreshed whenever an upload reuses it: a blob no file holds is removed only after an hour. */
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('package_blobs_sha256_key').on(t.sha256)],
);

export type PackageBlobRow = typeof packageBlobs.$inferSelect;

export const packageFiles = pgTable(
  'package_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    versionId: bigint('version_id', { mode: 'number' }).notNull().references(() => packageVersions.id, { onDelete: 'cascade' }),
    blobId: bigint('blob_id', { mode: 'number' }).notNull().references(() => packageBlobs.id),
    name: text('name').notNull(),
    lowerName: text('lower_name').notNull(),
    /** The version's main file (npm's tarball, …). */
    isLead: boolean('is_lead').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('package_files_version_name_key').on(t.versionId, t.lowerName), index('package_files_blob_idx').on(t.blobId)],
);

export type PackageFileRow = typeof packageFiles.$inferSelect;

/** An owner's cleanup rule for one package type (Gitea's package_cleanup_rule), applied by `cleanup_packages`. */
export const packageCleanupRules = pgTable(
  'package_cleanup_rules',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** The newest versions kept whatever the other settings say. */
    keepCount: bigint('keep_count', { mode: 'number' }).notNull().default(0),
    /** Versions matching this regular expression are kept. */
    keepPattern: text('keep_pattern').notNull().default(''),
    /** Versions older than this many days are removed (0: age does not matter). */
    removeDays: bigint('remove_days', { mode: 'number' }).notNull().default(0),
    /** Only versions matching this regular expression are removed (empty: any). */
    removePattern: text('remove_pattern').notNull().default(''),
    /** The patterns match `name/version` instead of the version alone. */
    matchFullName: boolean('match_full_name').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('package_cleanup_rules_owner_type_key').on(t.ownerId, t.type)],
);

export type PackageCleanupRuleRow = typeof packageCleanupRules.$inferSelect;
