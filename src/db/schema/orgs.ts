// Organization membership and teams. Organizations themselves are rows of `users` (type Organization).
import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AccessMode, Unit } from './access.js';
import type { Visibility } from './users.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const userRef = (name: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const orgMembers = pgTable(
  'org_members',
  {
    orgId: userRef('org_id'),
    userId: userRef('user_id'),
    /** Whether the membership is shown to non-members. */
    isPublic: boolean('is_public').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index('org_members_user_idx').on(t.userId)],
);

export const teams = pgTable(
  'teams',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: userRef('org_id'),
    name: text('name').notNull(),
    lowerName: text('lower_name').notNull(),
    description: text('description').notNull().default(''),
    /** The team-wide mode; per-unit modes are in team_units. */
    accessMode: text('access_mode').$type<AccessMode>().notNull(),
    includesAllRepositories: boolean('includes_all_repositories').notNull().default(false),
    canCreateOrgRepo: boolean('can_create_org_repo').notNull().default(false),
    visibility: text('visibility').$type<Visibility>().notNull().default('private'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('teams_org_lower_name_key').on(t.orgId, t.lowerName)],
);

const teamRef = (name: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' });

export const teamUnits = pgTable(
  'team_units',
  {
    teamId: teamRef('team_id'),
    unit: text('unit').$type<Unit>().notNull(),
    accessMode: text('access_mode').$type<AccessMode>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.unit] })],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: teamRef('team_id'),
    userId: userRef('user_id'),
    orgId: userRef('org_id'),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_org_idx').on(t.userId, t.orgId)],
);

export type TeamRow = typeof teams.$inferSelect;
export type TeamUnitRow = typeof teamUnits.$inferSelect;
