// Webhooks and their deliveries. A hook belongs to a repository, to an organisation (firing for each of
// its repositories), or to the site (system hooks fire for every repository; default hooks are copied
// into each repository created afterwards). One delivery row per matching hook and event, written in the
// event's transaction; each HTTP attempt is kept.
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const hooks = pgTable(
  'hooks',
  {
    id: id(),
    /** Set for a repository hook (no foreign key: deleting a repository deletes its hooks in its service). */
    repoId: bigint('repo_id', { mode: 'number' }),
    /** Set for an organisation hook. */
    ownerId: bigint('owner_id', { mode: 'number' }),
    /** Site hooks (repoId and ownerId null): system (every repository) or default (copied into new ones). */
    isSystem: boolean('is_system').notNull().default(false),
    name: text('name').notNull().default(''),
    type: text('type').notNull(),
    url: text('url').notNull(),
    contentType: text('content_type').notNull().default('json'),
    httpMethod: text('http_method').notNull().default('POST'),
    secret: text('secret').notNull().default(''),
    authorizationHeader: text('authorization_header').notNull().default(''),
    branchFilter: text('branch_filter').notNull().default(''),
    /** HookEventType names this hook receives (the request's groups expanded). */
    events: jsonb('events').$type<string[]>().notNull(),
    /** The request's config keys besides url, content_type and secret (slack channel, username, ...). */
    config: jsonb('config').$type<Record<string, string>>().notNull().default({}),
    active: boolean('active').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('hooks_repo_idx').on(t.repoId), index('hooks_owner_idx').on(t.ownerId)],
);

export type HookRow = typeof hooks.$inferSelect;

export const deliveryStates = ['pending', 'delivered', 'failed', 'blocked'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export const hookDeliveries = pgTable(
  'hook_deliveries',
  {
    id: id(),
    hookId: bigint('hook_id', { mode: 'number' }).notNull().references(() => hooks.id, { onDelete: 'cascade' }),
    /** The recorded event (0 for a test delivery). */
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    /** X-Gitea-Delivery. */
    guid: text('guid').notNull(),
    /** X-Gitea-Event (push, issues, issue_comment, pull_request, ...). */
    event: text('event').notNull(),
    /** X-Gitea-Event-Type (the HookEventType, e.g. issue_label). */
    eventType: text('event_type').notNull(),
    /** The body to send, exactly (JSON, or the form encoding of it). */
    payload: text('payload').notNull(),
    state: text('state').$type<DeliveryState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the worker may take it (again). */
    dueAt: ts('due_at').notNull().defaultNow(),
    /** A worker holds it until then; past it, another worker may take it. */
    leaseUntil: ts('lease_until'),
    lastStatus: integer('last_status'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('hook_deliveries_due_idx').on(t.state, t.dueAt),
    index('hook_deliveries_hook_idx').on(t.hookId, t.id),
    index('hook_deliveries_created_idx').on(t.createdAt),
  ],
);

export type HookDeliveryRow = typeof hookDeliveries.$inferSelect;

export const hookAttempts = pgTable(
  'hook_attempts',
  {
    id: id(),
    deliveryId: bigint('delivery_id', { mode: 'number' }).notNull().references(() => hookDeliveries.id, { onDelete: 'cascade' }),
    startedAt: ts('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    url: text('url').notNull(),
    /** What was sent, without secrets (the Authorization header is masked). */
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>().notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** The first 4 KiB of the answer. */
    responseBody: text('response_body'),
    /** Why no answer came (connection refused, timeout, blocked by the allow list). */
    error: text('error'),
  },
  (t) => [index('hook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

export type HookAttemptRow = typeof hookAttempts.$inferSelect;
