// Actions secrets and variables, at three levels: a repository's (owner 0, repo id), an organization's or
// a user's (owner id, repo 0). Names are stored upper-case (Gitea's names are case-insensitive). A
// secret's value is only ever stored encrypted (services/actions/secretBox.ts); a variable's is plain.
// Also the workflows a repository's writers switched off (`PUT …/workflows/{id}/disable`).
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const actionSecrets = pgTable(
  'action_secrets',
  {
    id: id(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().default(0),
    repoId: bigint('repo_id', { mode: 'number' }).notNull().default(0),
    name: text('name').notNull(),
    /** `v1.<key id>.<base64 of iv, tag and AES-256-GCM ciphertext>`: never the value itself. */
    data: text('data').notNull(),
    description: text('description').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('action_secrets_scope_name_idx').on(t.ownerId, t.repoId, t.name), index('action_secrets_repo_idx').on(t.repoId)],
);

export type ActionSecretRow = typeof actionSecrets.$inferSelect;

export const actionVariables = pgTable(
  'action_variables',
  {
    id: id(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().default(0),
    repoId: bigint('repo_id', { mode: 'number' }).notNull().default(0),
    name: text('name').notNull(),
    data: text('data').notNull(),
    description: text('description').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('action_variables_scope_name_idx').on(t.ownerId, t.repoId, t.name), index('action_variables_repo_idx').on(t.repoId)],
);

export type ActionVariableRow = typeof actionVariables.$inferSelect;

/** A workflow file switched off: pushes, pull requests, schedules and dispatches make no runs of it. */
export const actionDisabledWorkflows = pgTable(
  'action_disabled_workflows',
  {
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    /** The workflow's file name (`build.yml`). */
    workflowId: text('workflow_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.repoId, t.workflowId] })],
);
