// Organization projects: boards of columns holding issues and pull requests of the organization's
// repositories. An issue is on a project once, in one column.
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { issues } from './issues.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const projectTemplates = ['none', 'basic_kanban', 'bug_triage'] as const;
export type ProjectTemplate = (typeof projectTemplates)[number];
export const cardTypes = ['text_only', 'images_and_text'] as const;
export type CardType = (typeof cardTypes)[number];

export const projects = pgTable(
  'projects',
  {
    id: id(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    isClosed: boolean('is_closed').notNull().default(false),
    templateType: text('template_type').$type<ProjectTemplate>().notNull().default('none'),
    cardType: text('card_type').$type<CardType>().notNull().default('text_only'),
    /** Creators stay when their account goes: the API shows the ghost user. */
    creatorId: bigint('creator_id', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    closedAt: ts('closed_at'),
  },
  (t) => [index('projects_owner_idx').on(t.ownerId, t.isClosed, t.id)],
);

export const projectColumns = pgTable(
  'project_columns',
  {
    id: id(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    color: text('color').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    sorting: integer('sorting').notNull().default(0),
    creatorId: bigint('creator_id', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('project_columns_project_idx').on(t.projectId, t.sorting, t.id)],
);

export const projectIssues = pgTable(
  'project_issues',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    issueId: bigint('issue_id', { mode: 'number' })
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    columnId: bigint('column_id', { mode: 'number' })
      .notNull()
      .references(() => projectColumns.id),
    sorting: integer('sorting').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.issueId] }),
    index('project_issues_issue_idx').on(t.issueId),
    index('project_issues_column_idx').on(t.columnId),
  ],
);

export type ProjectRow = typeof projects.$inferSelect;
export type ProjectColumnRow = typeof projectColumns.$inferSelect;
