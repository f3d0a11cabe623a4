// The one commit a push brings when it is a child of the single tip it is counted against (a diffpatch,
// a file change, a branch moved by one ordinary commit), described like `git log --name-status
// --no-renames` would describe it, through the repository's cat-file reader: no git process. The file
// lists come from walking the parent's and the commit's trees side by side, descending only into
// subtrees whose ids differ. Anything else (merges, root commits, several commits) is left to git.
import { readObjects } from './catFile.js';
import { readCommit, readTree } from './objects.js';
import type { LoggedCommit } from './loggedCommit.js';

interface Entry {
  mode: string;
  id: string;
  tree: boolean;
}

async function treeOf(dir: string, id: string): Promise<Map<string, Entry>> {
  return new Map((await readTree(dir, id)).map((e) => [e.name, { mode: e.mode, id: e.id, tree: e.type === 'tree' }]));
}

type Change = [status: 'A' | 'D' | 'M', path: string];

/** Every file (blob or submodule) below tree `id`, as added or removed. */
async function allFiles(dir: string, id: string, prefix: string, status: 'A' | 'D', out: Change[]): Promise<void> {
  for (const [name, e] of await treeOf(dir, id)) {
    if (e.tree) await allFiles(dir, e.id, `${prefix}${name}/`, status, out);
    else out.push([status, `${prefix}${name}`]);
  }
}

async function diffTrees(dir: string, a: string, b: string, prefix: string, out: Change[]): Promise<void> {
  const [before, after] = await Promise.all([treeOf(dir, a), treeOf(dir, b)]);
  for (const [name, old] of before) {
    const now = after.get(name);
    const path = `${prefix}${name}`;
    if (now && now.id === old.id && now.mode === old.mode) continue;
    if (old.tree && now?.tree) await diffTrees(dir, old.id, now.id, `${path}/`, out);
    else if (!old.tree && now && !now.tree) out.push(['M', path]); // content, mode, or file ↔ link ↔ submodule
    else {
      // Gone, or a file replaced by a folder (or the reverse): removed, then what replaced it is added.
      if (old.tree) await allFiles(dir, old.id, `${path}/`, 'D', out);
      else out.push(['D', path]);
      if (now?.tree) await allFiles(dir, now.id, `${path}/`, 'A', out);
      else if (now) out.push(['A', path]);
    }
  }
  for (const [name, now] of after) {
    if (before.has(name)) continue;
    if (now.tree) await allFiles(dir, now.id, `${prefix}${name}/`, 'A', out);
    else out.push(['A', `${prefix}${name}`]);
  }
}

/** "Name <email> 1700000000 +0130" → name, email and the date as git's %aI prints it (the writer's offset). */
function signature(line: string): LoggedCommit['author'] | undefined {
  const m = /^(.*) <([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/s.exec(line);
  if (!m) return undefined;
  const offsetMin = (m[4] === '-' ? -1 : 1) * (Number(m[5]) * 60 + Number(m[6]));
  const local = new Date((Number(m[3]) + offsetMin * 60) * 1000).toISOString().slice(0, 19);
  return { name: m[1]!, email: m[2]!, date: `${local}${m[4]}${m[5]}:${m[6]}` };
}

/**
 * `after` described as the only commit it brings over `exclude`, when `exclude` is its one parent;
 * undefined when git must be asked.
 */
export async function singlePushedCommit(dir: string, after: string, exclude: string[]): Promise<LoggedCommit | undefined> {
  if (exclude.length !== 1) return undefined;
  const [raw] = await readObjects(dir, [after]);
  if (raw?.type !== 'commit') return undefined;
  const text = raw.body.toString('utf8');
  const end = text.indexOf('\n\n');
  const head = (end < 0 ? text : text.slice(0, end)).split('\n');
  const field = (k: string) => head.filter((l) => l.startsWith(`${k} `)).map((l) => l.slice(k.length + 1));
  const parents = field('parent');
  // An encoding header means a message git would re-encode for log: left to git.
  if (parents.length !== 1 || parents[0] !== exclude[0] || field('encoding').length) return undefined;
  const [author, committer] = [signature(field('author')[0] ?? ''), signature(field('committer')[0] ?? '')];
  if (!author || !committer) return undefined;
  const changes: Change[] = [];
  await diffTrees(dir, (await readCommit(dir, parents[0]!)).tree, field('tree')[0]!, '', changes);
  // git lists paths in byte order of the full path (its tree walk order).
  changes.sort(([, a], [, b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const pick = (s: Change[0]) => changes.filter(([st]) => st === s).map(([, p]) => p);
  return {
    id: after, author, committer, message: end < 0 ? '' : text.slice(end + 2),
    added: pick('A'), removed: pick('D'), modified: pick('M'),
  };
}
