// Commit details for a page of commits in two git calls (one cat-file --batch, one diff-tree
// --stdin), never one call per item.
import { git, gitBuffer } from './core.js';
import { person, type CommitData, type FileChanges } from './objects.js';


function parseCommit(id: string, raw: string): CommitData {
  const end = raw.indexOf('\n\n');
  const head = (end < 0 ? raw : raw.slice(0, end)).split('\n');
  const get = (k: string) => head.find((l) => l.startsWith(`${k} `))?.slice(k.length + 1) ?? '';
  return {
    id,
    tree: get('tree'),
    parents: head.filter((l) => l.startsWith('parent ')).map((l) => l.slice(7)),
    author: person(get('author')),
    committer: person(get('committer')),
    message: end < 0 ? '' : raw.slice(end + 2),
  };
}

export type DescribedCommit = CommitData & FileChanges;

export async function describeCommits(dir: string, ids: string[]): Promise<Map<string, DescribedCommit>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, DescribedCommit>();
  if (unique.length === 0) return out;
  const batch = await gitBuffer(dir, ['cat-file', '--batch'], { stdin: unique.join('\n') + '\n' });
  let pos = 0;
  for (const id of unique) {
    const nl = batch.indexOf(0x0a, pos);
    const header = batch.subarray(pos, nl).toString('utf8').split(' ');
    const size = Number(header[2]);
    const body = batch.subarray(nl + 1, nl + 1 + size).toString('utf8');
    pos = nl + 1 + size + 1;
    out.set(id, { ...parseCommit(id, body), added: [], modified: [], removed: [] });
  }
  const { stdout } = await git(dir, ['diff-tree', '--stdin', '-r', '--root', '-z', '--name-status'], { stdin: unique.join('\n') + '\n' });
  const tokens = stdout.split('\0');
  let current: DescribedCommit | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!.replace(/^\n/, '');
    if (!t) continue;
    if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(t) && out.has(t)) {
      current = out.get(t);
      continue;
    }
    const path = tokens[++i] ?? '';
    if (!current) continue;
    if (t === 'A') current.added.push(path);
    else if (t === 'D') current.removed.push(path);
    else current.modified.push(path);
  }
  return out;
}
