// Actions artifacts: files a job uploads through the artifact protocol (v4: one zip per artifact),
// kept in the actions_artifacts storage (the folder $DATA_DIR/actions_artifacts by default, or S3) and kept until they expire (retention days), are deleted
// through the API, or their run is deleted. The cron task cleanup_actions removes expired ones' files.
// A v1–v3 artifact (actions/upload-artifact@v3) is a folder of files, uploaded one by one in chunks:
// its files are rows of action_artifact_files, each stored as uploaded (gzip'ed when the uploader sent it so).
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { actionRuns } from './actions.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Gitea's artifact states: being uploaded, confirmed (finalized), expired (file gone), deleted. */
export const artifactStates = ['upload_pending', 'upload_confirmed', 'expired', 'pending_deletion'] as const;
export type ArtifactState = (typeof artifactStates)[number];

export const actionArtifacts = pgTable(
  'action_artifacts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => actionRuns.id, { onDelete: 'cascade' }),
    repoId: bigint('repo_id', { mode: 'number' }).notNull(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    /** The run job that uploaded it. */
    jobId: bigint('job_id', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    /**
     * The stored zip's key in the actions_artifacts storage, `<run>/<id>.zip` (v1–v3: the folder of its
     * files, `<run>/<id>`); empty until the upload is committed.
     */
    storagePath: text('storage_path').notNull().default(''),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    /** `sha256:<hex>` as the uploader reported it at finalization. */
    hash: text('hash').notNull().default(''),
    /** 4 for the v4 protocol (a zip); 3 for the v1–v3 protocol (files in action_artifact_files). */
    version: bigint('version', { mode: 'number' }).notNull().default(4),
    status: text('status').$type<ArtifactState>().notNull().default('upload_pending'),
    expiresAt: ts('expires_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('action_artifacts_run_idx').on(t.runId, t.name), index('action_artifacts_repo_idx').on(t.repoId, t.id), index('action_artifacts_expiry_idx').on(t.status, t.expiresAt)],
);

export type ActionArtifactRow = typeof actionArtifacts.$inferSelect;

/**
 * The files of a v1–v3 artifact: its path inside the artifact, its size (uncompressed) and the stored
 * file's size and encoding (`gzip` when the uploader compressed it: stored and served compressed).
 */
export const actionArtifactFiles = pgTable(
  'action_artifact_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    artifactId: bigint('artifact_id', { mode: 'number' })
      .notNull()
      .references(() => actionArtifacts.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    storedSize: bigint('stored_size', { mode: 'number' }).notNull().default(0),
    contentEncoding: text('content_encoding').notNull().default(''),
    /** The merged file's key in the actions_artifacts storage, `<run>/<artifact id>/<file id>` (empty until the upload is confirmed). */
    storagePath: text('storage_path').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('action_artifact_files_path_key').on(t.artifactId, t.path)],
);

export type ActionArtifactFileRow = typeof actionArtifactFiles.$inferSelect;
