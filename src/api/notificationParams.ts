// The query parameters the notification operations share, read as Gitea reads them.
import type { NotificationStatus, SubjectType } from '../db/schema/index.js';
import { instant } from './queryDates.js';
import type { ThreadFilter } from '../services/notifications/notifications.js';

/** Go's strconv.ParseBool true values; anything else (unparsable included) is false, as ctx.FormBool. */
export const goTrue = (v: string | undefined) => v !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);

const list = <T extends string>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const subjectTypes: Record<string, SubjectType> = { issue: 'Issue', pull: 'Pull', commit: 'Commit', repository: 'Repository' };

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
