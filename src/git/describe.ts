// Commit details for a page of commits: the objects from the repository's cat-file reader, the changed
// files (when asked) from one diff-tree --stdin; never one call per item.
import { readObjects } from './catFile.js';
import { git } from './core.js';
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

/** The commits with the files each changed; `files: false` leaves the file lists empty (one git call fewer). */
export async function describeCommits(dir: string, ids: string[], opts: { files?: boolean } = {}): Promise<Map<string, DescribedCommit>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, DescribedCommit>();
  if (unique.length === 0) return out;
  if (unique.some((id) => !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(id))) throw new Error('describeCommits takes full commit ids');
  const objects = await readObjects(dir, unique);
  unique.forEach((id, i) => {
    const o = objects[i];
    if (!o) throw new Error(`no such object: ${id}`);
    out.set(id, { ...parseCommit(id, o.body.toString('utf8')), added: [], modified: [], removed: [] });
  });
  if (opts.files === false) return out;
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
