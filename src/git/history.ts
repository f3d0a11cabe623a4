// A branch's history as the commit list pages it: the ids of one page and the count of all, each one
// rev-list, with the list's filters (a path, a committer-date window, an excluded tip). Pathspecs are
// literal: a path from a request may hold `*` or a leading `:`.
import { git } from './core.js';

export interface HistoryFilter {
  path?: string;
  since?: Date;
  until?: Date;
  /** Commits reachable from this one are left out. */
  not?: string;
}

/** git's raw time (`@<seconds>`); git knows nothing before 1970. */
const raw = (d: Date) => `@${Math.max(0, Math.floor(d.getTime() / 1000))}`;

function revArgs(tip: string, f: HistoryFilter): string[] {
  const args: string[] = [];
  if (f.since) args.push(`--since=${raw(f.since)}`);
  if (f.until) args.push(`--until=${raw(f.until)}`);
  args.push(tip);
  if (f.not) args.push(`^${f.not}`);
  args.push('--');
  if (f.path) args.push(f.path);
  return args;
}

const literal = { env: { GIT_LITERAL_PATHSPECS: '1' } };

/** One page of the history of `tip` (newest first) and the number of commits on all pages. */
export async function historyPage(dir: string, tip: string, f: HistoryFilter, page: { offset: number; limit: number }): Promise<{ ids: string[]; total: number }> {
  const [list, count] = await Promise.all([
    git(dir, ['rev-list', `--skip=${page.offset}`, `--max-count=${page.limit}`, ...revArgs(tip, f)], literal),
    git(dir, ['rev-list', '--count', ...revArgs(tip, f)], literal),
  ]);
  return { ids: list.stdout.split('\n').filter(Boolean), total: Number(count.stdout.trim()) };
}
