// Reading commits, tags, trees and blobs.
import { fullId, readObjects } from './catFile.js';
import { git, gitBuffer } from './core.js';

export interface Person {
  name: string;
  email: string;
  date: Date;
}

export interface CommitData {
  id: string;
  tree: string;
  parents: string[];
  author: Person;
  committer: Person;
  message: string;
}

/** A "Name <email> 1700000000 +0000" line of a commit or tag object. */
export function person(line: string): Person {
  // "Name <email> 1700000000 +0000"
  const m = /^(.*) <([^>]*)> (\d+) ([+-]\d{4})$/s.exec(line);
  if (!m) return { name: line, email: '', date: new Date(0) };
  return { name: m[1]!, email: m[2]!, date: new Date(Number(m[3]) * 1000) };
}

/** Splits a commit or tag object into its headers and message. */
function parseObject(raw: string): { headers: Array<[string, string]>; message: string } {
  const end = raw.indexOf('\n\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const message = end < 0 ? '' : raw.slice(end + 2);
  const headers: Array<[string, string]> = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length) headers[headers.length - 1]![1] += `\n${line.slice(1)}`;
    else {
      const i = line.indexOf(' ');
      headers.push([line.slice(0, i), line.slice(i + 1)]);
    }
  }
  return { headers, message };
}


export async function objectType(dir: string, id: string): Promise<string | undefined> {
  if (fullId.test(id)) return (await readObjects(dir, [id]))[0]?.type;
  const r = await git(dir, ['cat-file', '-t', '--end-of-options', id], { okCodes: [1, 128] });
  return r.exitCode === 0 ? r.stdout.trim() : undefined;
}

export async function readCommit(dir: string, id: string): Promise<CommitData> {
  // A commit id is read by the repository's cat-file reader; anything else (a tag, which `cat-file commit`
  // peels to its commit) by git.
  const [raw] = fullId.test(id) ? await readObjects(dir, [id]) : [];
  const text = raw?.type === 'commit' ? raw.body.toString('utf8') : (await git(dir, ['cat-file', 'commit', id])).stdout;
  const { headers, message } = parseObject(text);
  const get = (k: string) => headers.find(([h]) => h === k)?.[1] ?? '';
  return {
    id,
    tree: get('tree'),
    parents: headers.filter(([h]) => h === 'parent').map(([, v]) => v),
    author: person(get('author')),
    committer: person(get('committer')),
    message,
  };
}

export interface TagData {
  id: string;
  object: string;
  type: string;
  tag: string;
  tagger: Person;
  /** The message, without the signature a signed tag appends to it. */
  message: string;
  /** A signed tag's armored signature and what it signs (the object up to the signature). */
  signed?: CommitSignature;
}

/** An annotated tag object; undefined when `id` is no tag object. */
export async function readTag(dir: string, id: string): Promise<TagData | undefined> {
  const [raw] = fullId.test(id) ? await readObjects(dir, [id]) : [];
  let text: string;
  if (raw) {
    if (raw.type !== 'tag') return undefined;
    text = raw.body.toString('utf8');
  } else {
    if ((await objectType(dir, id)) !== 'tag') return undefined;
    text = (await git(dir, ['cat-file', 'tag', id])).stdout;
  }
  const { headers, message } = parseObject(text);
  const get = (k: string) => headers.find(([h]) => h === k)?.[1] ?? '';
  // A signed tag's signature ends its message (git tag -s): what precedes it is what was signed.
  const at = message.search(/^-----BEGIN (PGP|SSH) SIGNATURE-----$/m);
  const signed = at < 0 ? undefined : { signature: message.slice(at), payload: text.slice(0, text.length - (message.length - at)) };
  return { id, object: get('object'), type: get('type'), tag: get('tag'), tagger: person(get('tagger')), message: at < 0 ? message : message.slice(0, at), signed };
}

export interface FileChanges {
  added: string[];
  modified: string[];
  removed: string[];
}

/** Files a commit added, changed and removed against its first parent (or the empty tree). */
export async function commitChanges(dir: string, id: string): Promise<FileChanges> {
  const { stdout } = await git(dir, ['diff-tree', '--root', '--no-commit-id', '-r', '-z', '--name-status', id]);
  const parts = stdout.split('\0').filter(Boolean);
  const out: FileChanges = { added: [], modified: [], removed: [] };
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!;
    const path = parts[i + 1]!;
    if (status === 'A') out.added.push(path);
    else if (status === 'D') out.removed.push(path);
    else out.modified.push(path);
  }
  return out;
}

export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  id: string;
  size: number;
  path: string;
}

/** Entries of the tree at `path` ('' for the root) in `commit`; the entry itself when `path` is a file. */
export async function lsTree(dir: string, commit: string, path: string, opts: { self?: boolean } = {}): Promise<TreeEntry[]> {
  const spec = path ? (opts.self ? path.replace(/\/+$/, '') : `${path.replace(/\/+$/, '')}/`) : '';
  const args = ['ls-tree', '-z', '--long', '--full-tree', commit];
  if (spec) args.push('--', spec);
  const { stdout } = await git(dir, args);
  return stdout.split('\0').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    const [mode, type, id, size] = line.slice(0, tab).split(/\s+/);
    return { mode: mode!, type: type as TreeEntry['type'], id: id!, size: size === '-' ? 0 : Number(size), path: line.slice(tab + 1) };
  });
}

/** An entry of a tree object: its mode (as ls-tree prints it), kind, object and name. */
export interface DirEntry {
  mode: string;
  type: TreeEntry['type'];
  id: string;
  name: string;
}

/** A tree object's entries: `<mode> <name>\0<raw id>` each. */
function parseTreeObject(body: Buffer, idBytes: number): DirEntry[] {
  const out: DirEntry[] = [];
  for (let i = 0; i < body.length;) {
    const space = body.indexOf(0x20, i);
    const nul = body.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > body.length) throw new Error('malformed tree object');
    const mode = body.toString('latin1', i, space);
    const type = mode === '40000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    out.push({ mode: mode.padStart(6, '0'), type, id: body.toString('hex', nul + 1, nul + 1 + idBytes), name: body.toString('utf8', space + 1, nul) });
    i = nul + 1 + idBytes;
  }
  return out;
}

/**
 * The entries of directory `path` in commit `commit` (a full id), read through the repository's cat-file
 * reader, so no git process starts (Actions reads the workflow folders of every push this way): [] when
 * there is no such directory.
 */
export async function readDir(dir: string, commit: string, path: string): Promise<DirEntry[]> {
  if (!fullId.test(commit)) throw new Error(`no commit ${commit}`);
  let entries = await readTree(dir, (await readCommit(dir, commit)).tree);
  for (const part of path.split('/').filter(Boolean)) {
    const sub = entries.find((e) => e.name === part && e.type === 'tree');
    if (!sub) return [];
    entries = await readTree(dir, sub.id);
  }
  return entries;
}

/** The entries of tree object `tree` (a full id), through the cat-file reader. */
export async function readTree(dir: string, tree: string): Promise<DirEntry[]> {
  const [t] = fullId.test(tree) ? await readObjects(dir, [tree]) : [];
  if (t?.type !== 'tree') throw new Error(`no tree ${tree}`);
  return parseTreeObject(t.body, tree.length / 2);
}

/** Blobs by id through the cat-file reader, in order (a missing one is an error). */
export async function readBlobs(dir: string, ids: string[]): Promise<Buffer[]> {
  const raws = ids.length ? await readObjects(dir, ids) : [];
  return raws.map((r, i) => {
    if (r?.type !== 'blob') throw new Error(`no blob ${ids[i]}`);
    return r.body;
  });
}

export async function readBlob(dir: string, id: string): Promise<Buffer> {
  return gitBuffer(dir, ['cat-file', 'blob', id]);
}

/** The last commit touching `path` up to `commit`. */
export async function lastCommitFor(dir: string, commit: string, path: string): Promise<string | undefined> {
  const { stdout } = await git(dir, ['rev-list', '-n', '1', commit, '--', path || '.']);
  return stdout.trim() || undefined;
}

export async function countCommits(dir: string, rev: string): Promise<number> {
  const { stdout } = await git(dir, ['rev-list', '--count', rev]);
  return Number(stdout.trim());
}

/** Submodule path → URL from the `.gitmodules` of `commit`; empty when it has none (or an unreadable one). */
export async function submoduleUrls(dir: string, commit: string): Promise<Map<string, string>> {
  const r = await git(dir, ['config', '--blob', `${commit}:.gitmodules`, '--null', '--list'], { okCodes: [1, 128] });
  const out = new Map<string, string>();
  if (r.exitCode !== 0) return out;
  const values = new Map<string, string>();
  for (const item of r.stdout.split('\0')) {
    const nl = item.indexOf('\n');
    if (nl > 0) values.set(item.slice(0, nl), item.slice(nl + 1));
  }
  for (const [key, path] of values) {
    const url = key.startsWith('submodule.') && key.endsWith('.path') ? values.get(`${key.slice(0, -'.path'.length)}.url`) : undefined;
    if (url) out.set(path, url);
  }
  return out;
}

/** Paths that differ between two commits; with no `before` (a new ref), the paths of `after`'s own changes. */
export async function changedPaths(dir: string, before: string, after: string): Promise<string[]> {
  const args = before ? ['diff', '--name-only', '-z', '--no-renames', before, after, '--'] : ['diff-tree', '--root', '--no-commit-id', '--name-only', '-r', '-z', after];
  const { stdout } = await git(dir, args);
  return stdout.split('\0').filter(Boolean);
}

export interface CommitSignature {
  /** The armored signature (the `gpgsig` header). */
  signature: string;
  /** What was signed: the commit object without its signature header. */
  payload: string;
}

/** The signatures of commits (undefined for unsigned ones), read in one batch. */
export async function commitSignatures(dir: string, ids: string[]): Promise<Map<string, CommitSignature | undefined>> {
  const out = new Map<string, CommitSignature | undefined>();
  const wanted = [...new Set(ids.filter((id) => fullId.test(id)))];
  const raws = wanted.length ? await readObjects(dir, wanted) : [];
  wanted.forEach((id, i) => {
    const raw = raws[i];
    if (raw?.type !== 'commit') return out.set(id, undefined);
    const text = raw.body.toString('utf8');
    const end = text.indexOf('\n\n');
    const head = (end < 0 ? text : text.slice(0, end)).split('\n');
    const at = head.findIndex((l) => l.startsWith('gpgsig ') || l.startsWith('gpgsig-sha256 '));
    if (at < 0) return out.set(id, undefined);
    let last = at + 1;
    while (last < head.length && head[last]!.startsWith(' ')) last++;
    const sigLines = [head[at]!.slice(head[at]!.indexOf(' ') + 1), ...head.slice(at + 1, last).map((l) => l.slice(1))];
    const rest = [...head.slice(0, at), ...head.slice(last)].join('\n');
    out.set(id, { signature: `${sigLines.join('\n')}\n`, payload: end < 0 ? `${rest}\n` : `${rest}${text.slice(end)}` });
  });
  return out;
}
