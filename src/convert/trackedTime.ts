import type { components } from '../../generated/openapi.js';
import type { IssueRow, RepoRow, StopwatchRow, TrackedTimeRow, UserRow } from '../db/schema/index.js';
import { ghost } from './ghost.js';
import { iso } from './time.js';

type Schemas = components['schemas'];

export function toTrackedTime(t: TrackedTimeRow, user: UserRow | null, issue: Schemas['Issue'] | null): Schemas['TrackedTime'] {
  return {
    id: t.id,
    created: iso(t.createdAt),
    time: t.time,
    user_id: t.userId,
    user_name: (user ?? ghost).name,
    issue_id: t.issueId,
    issue,
  };
}

/** Seconds as Gitea's util.SecToTime writes them: `1d 2h 3m 4s`, leaving out the zero parts. */
export function secondsToText(total: number): string {
  const parts: Array<[number, string]> = [
    [Math.floor(total / 86400), 'd'],
    [Math.floor(total / 3600) % 24, 'h'],
    [Math.floor(total / 60) % 60, 'm'],
    [total % 60, 's'],
  ];
  return parts.filter(([n]) => n > 0).map(([n, u]) => `${n}${u}`).join(' ');
}

export function toStopWatch(sw: StopwatchRow, issue: IssueRow, repo: RepoRow, owner: UserRow, now: Date): Schemas['StopWatch'] {
  const seconds = Math.max(0, Math.floor((now.getTime() - sw.createdAt.getTime()) / 1000));
  return {
    created: iso(sw.createdAt),
    seconds,
    duration: secondsToText(seconds),
    issue_index: issue.index,
    issue_title: issue.title,
    repo_owner_name: owner.name,
    repo_name: repo.name,
  };
}
