// What a push changed: every branch and tag tip before and after, and the commits a moved ref brought,
// with the files each commit added, removed and modified (the push payload's and the feed's view).
import { git } from './core.js';
import type { LoggedCommit } from './loggedCommit.js';
import { singlePushedCommit } from './treeDiff.js';

export type { LoggedCommit } from './loggedCommit.js';

/** Full ref name (refs/heads/x, refs/tags/y) → the object it points at. */
export async function listRefTips(dir: string): Promise<Map<string, string>> {
  const { stdout } = await git(dir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/tags/']);
  const tips = new Map<string, string>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const i = line.indexOf(' ');
    tips.set(line.slice(i + 1), line.slice(0, i));
  }
  return tips;
}

export interface RefChange {
  ref: string;
  /** All zeros for a created ref. */
  before: string;
  /** All zeros for a deleted ref. */
  after: string;
}

const isZero = (id: string) => /^0+$/.test(id);
const rank = (r: string) => (r.startsWith('refs/heads/') ? 0 : 1);
const byRef = (x: RefChange, y: RefChange) => rank(x.ref) - rank(y.ref) || (x.ref < y.ref ? -1 : x.ref > y.ref ? 1 : 0);

/** Branches first, each group by name: the order a push's events are recorded in. */
export const sortChanges = (changes: RefChange[]): RefChange[] => [...changes].sort(byRef);

export interface JournalledUpdates {
  /** Updates git committed. */
  committed: RefChange[];
  /** Updates git prepared but was stopped before it said whether they committed. */
  unsure: RefChange[];
}

/**
 * The branch and tag updates a push's reference-transaction journal (git/preReceive.ts) shows, branches
 * first, each group by name. Lines are `<state> <old> <new> <ref>`; git also reports the ref it touches in
 * packed-refs when deleting one (old and new both zero) and HEAD moving with its branch: both are left out.
 */
export function journalUpdates(text: string): JournalledUpdates {
  const state = new Map<string, { change: RefChange; done?: 'committed' | 'aborted' }>();
  for (const line of text.split('\n')) {
    const [what, before, after, ref, ...rest] = line.split(' ');
    if (!ref || rest.length || !before || !after) continue;
    if (!ref.startsWith('refs/heads/') && !ref.startsWith('refs/tags/')) continue;
    if (isZero(before) && isZero(after)) continue;
    if (what === 'prepared') state.set(ref, { change: { ref, before, after } });
    else if (what === 'committed' || what === 'aborted') {
      const entry = state.get(ref) ?? { change: { ref, before, after } };
      entry.done = what;
      state.set(ref, entry);
    }
  }
  const committed: RefChange[] = [];
  const unsure: RefChange[] = [];
  for (const { change, done } of state.values()) {
    if (done === 'committed') committed.push(change);
    else if (!done) unsure.push(change);
  }
  return { committed: committed.sort(byRef), unsure: unsure.sort(byRef) };
}

const RS = '\x1e';
const US = '\x1f';

/**
 * The commits `after` brings over `exclude` (commits reachable from any of them are left out), newest
 * first, at most `max` described, and how many there are in all. Two git calls whatever the count (none
 * for a single commit on the one excluded tip).
 */
export async function pushedCommits(dir: string, after: string, exclude: string[], max: number): Promise<{ commits: LoggedCommit[]; total: number }> {
  // The common case of one new commit on its old tip (a diffpatch, a file change) needs no git process.
  const one = max > 0 ? await singlePushedCommit(dir, after, exclude) : undefined;
  if (one) return { commits: [one], total: 1 };
  const range = [after, '--not', ...exclude, '--'];
  const count = async () => Number((await git(dir, ['rev-list', '--count', ...range])).stdout.trim()) || 0;
  if (max <= 0) return { commits: [], total: await count() };
  const format = `${RS}%H${US}%an${US}%ae${US}%aI${US}%cn${US}%ce${US}%cI${US}%B${US}`;
  const { stdout } = await git(dir, [
    '-c', 'core.quotePath=false', 'log', `--format=${format}`, '--name-status', '--no-renames', `-n${max}`, ...range,
  ]);
  const commits: LoggedCommit[] = [];
  for (const chunk of stdout.split(RS).slice(1)) {
    const f = chunk.split(US);
    const c: LoggedCommit = {
      id: f[0]!,
      author: { name: f[1]!, email: f[2]!, date: f[3]! },
      committer: { name: f[4]!, email: f[5]!, date: f[6]! },
      message: f[7]!,
      added: [],
      removed: [],
      modified: [],
    };
    for (const line of (f[8] ?? '').split('\n')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const status = line[0];
      const path = line.slice(tab + 1);
      (status === 'A' ? c.added : status === 'D' ? c.removed : c.modified).push(path);
    }
    commits.push(c);
  }
  // Fewer than `max` commits logged is all of them; only a longer push needs counting.
  return { commits, total: commits.length < max ? commits.length : await count() };
}
