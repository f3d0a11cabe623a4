// The query parameters the notification operations share, read as Gitea reads them.
import type { NotificationStatus, SubjectType } from '../db/schema/index.js';
import { Invalid } from '../services/errors.js';
import type { ThreadFilter } from '../services/notifications/notifications.js';

/** Go's strconv.ParseBool true values; anything else (unparsable included) is false, as ctx.FormBool. */
export const goTrue = (v: string | undefined) => v !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);

const list = <T extends string>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const subjectTypes: Record<string, SubjectType> = { issue: 'Issue', pull: 'Pull', commit: 'Commit', repository: 'Repository' };

// The moments PostgreSQL reads back from an ISO date: years 0001 to 9999 (UTC).
const earliest = Date.parse('0001-01-01T00:00:00.000Z');
const latest = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A date-time query value (the spec's format already checked) as a Date. A leap second passes the format
 * but is no JavaScript (nor Go) time: 422, as the format's own failure. A moment before year 1 or after
 * 9999 (year 0000, or an offset across the edge) is held to that range: it selects the same threads.
 */
function instant(name: string, v: string | undefined): Date | undefined {
  if (!v) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new Invalid(`[${name}]: must match format "date-time"`);
  return new Date(Math.min(Math.max(t, earliest), latest));
}

export interface ListQuery {
  all?: string;
  'status-types'?: NotificationStatus[] | NotificationStatus;
  'subject-type'?: Array<'issue' | 'pull' | 'commit' | 'repository'> | 'issue' | 'pull' | 'commit' | 'repository';
  since?: string;
  before?: string;
}

/** GET lists: unread and pinned threads unless `all` or `status-types` choose otherwise. */
export function listFilter(q: ListQuery): ThreadFilter {
  const given = list(q['status-types']);
  return {
    statuses: goTrue(q.all) ? [] : given.length ? given : ['unread', 'pinned'],
    subjectTypes: list(q['subject-type']).map((t) => subjectTypes[t]!),
    since: instant('since', q.since),
    before: instant('before', q.before),
  };
}

export interface TransitionQuery {
  all?: string;
  'status-types'?: NotificationStatus[] | NotificationStatus;
  'to-status'?: NotificationStatus;
  last_read_at?: string;
}

/** PUT transitions: `status-types` (unread when omitted) unless `all`; to `to-status` (read when omitted). */
export function transitionOf(q: TransitionQuery): { statuses: NotificationStatus[]; lastReadAt?: Date; to: NotificationStatus } {
  const given = list(q['status-types']);
  return {
    statuses: goTrue(q.all) ? [] : given.length ? given : ['unread'],
    lastReadAt: instant('last_read_at', q.last_read_at),
    to: q['to-status'] ?? 'read',
  };
}
