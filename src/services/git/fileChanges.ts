// The contents API's writes (create, update, delete, several at once): one commit on a branch, made
// without a work tree. Each attempt checks the files against the branch tip it builds on and moves the
// branch with a compare-and-swap, so a writer holding a stale `sha` never overwrites another's change:
// it is refused (Gitea's 422 for a mismatched sha) or, when the tip moved without touching its files,
// rebuilt on the new tip.
import { GitError } from '../../git/core.js';
import { zeroIdLike } from '../../git/commit.js';
import { readBlob, readCommit, type CommitData, type TreeEntry } from '../../git/objects.js';
import { entriesAt } from '../../git/pathHistory.js';
import { createRef, moveRef, refTarget, setHead } from '../../git/refs.js';
import { commitIndexChanges, writeBlob, type IndexChange } from '../../git/treeEdit.js';
import type { UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Invalid, NotFound, RepoArchived } from '../errors.js';
import type { RefChange } from '../../git/pushLog.js';
import type { DomainEvent } from '../events/types.js';
import { withKeyLock } from '../locks.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { requireCodeWriter, type BranchService } from './branches.js';
import { checkTargetBranch, commitMessage, commitPeople, type CommitOptions } from './commitOptions.js';
import type { ContentEntry } from './contents.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export type FileOperation = 'create' | 'update' | 'upload' | 'rename' | 'delete';

export interface FileChange {
  operation: FileOperation;
  path: string;
  fromPath?: string;
  /** base64 */
  content?: string;
  sha?: string;
}

export interface FileChangeInput extends CommitOptions {
  files: FileChange[];
  branch?: string;
  newBranch?: string;
  forcePush?: boolean;
}

export interface FileChangeResult {
  /** The branch the commit is on. */
  ref: string;
  commit: CommitData;
  /** Each file at the new commit, in the order asked; null where it was deleted. */
  files: Array<ContentEntry | null>;
}

interface Planned {
  op: FileOperation;
  /** As given, for the default message. */
  given: string;
  path: string;
  from: string;
  /** A rename without content: the old blob moves (read at each attempt's tip). */
  keep: boolean;
  data?: Buffer;
  blob?: string;
  /** Set by the checks: an executable file stays executable. */
  mode?: string;
  sha?: string;
}

const attempts = 8;

/** The files as the new commit has them, from what was written (no git call). */
function written(files: Planned[], commit: CommitData): Array<ContentEntry | null> {
  return files.map((f) =>
    f.op === 'delete' ? null : { entry: { mode: f.mode!, type: 'blob', id: f.blob!, size: f.data!.length, path: f.path }, data: f.data, lastCommit: commit },
  );
}

const MAX_TREE_PATH_BYTES = 4096;

/**
 * Gitea's tree-path cleaning: `.` and empty segments dropped, `..` resolved inside the tree; a `.git` segment
 * is refused. So are control characters (a newline splits git's path lists), backslashes (a separator on
 * Windows checkouts, where `a\b` would name a folder) and paths longer than a checkout can hold (PATH_MAX).
 */
function cleanTreePath(raw: string): string | undefined {
  if (/[\x00-\x1f\x7f\\]/.test(raw) || Buffer.byteLength(raw) > MAX_TREE_PATH_BYTES) return undefined;
  const out: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  if (out.some((p) => p.toLowerCase() === '.git')) return undefined;
  return out.join('/') || undefined;
}

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decode(content: string | undefined, path: string): Buffer {
  const text = (content ?? '').replace(/[\r\n]/g, '');
  if (text.length % 4 !== 0 || !base64.test(text)) throw new Invalid(`[content]: invalid base64 content [path: ${path}]`);
  return Buffer.from(text, 'base64');
}

/** Gitea's default message: `Add …`, `Update …`, `Delete …` lines. */
function defaultMessage(files: Planned[]): string {
  const by = (ops: FileOperation[]) => files.filter((f) => ops.includes(f.op)).map((f) => f.given).join(', ');
  const lines = [['Add', by(['create'])], ['Update', by(['update', 'upload', 'rename'])], ['Delete', by(['delete'])]];
  return lines.filter(([, names]) => names).map(([verb, names]) => `${verb} ${names}`).join('\n');
}

/**
 * The entries at every leading path of each path (`a`, `a/b`, `a/b/c`) in `commit`. ls-tree shows a tree
 * that a pathspec names instead of descending into it for a longer pathspec, so each depth is one call.
 */
async function entriesAlong(dir: string, commit: string, paths: string[]): Promise<Map<string, TreeEntry>> {
  const byDepth: Array<Set<string>> = [];
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = 1; i <= parts.length; i++) (byDepth[i - 1] ??= new Set()).add(parts.slice(0, i).join('/'));
  }
  const found = await Promise.all(byDepth.map((level) => entriesAt(dir, commit, [...level])));
  return new Map(found.flatMap((m) => [...m]));
}

export class FileChangeService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly branches: BranchService,
    private readonly signing: CommitSigning,
  ) {}

  async change(loaded: LoadedRepo, actor: UserRow, input: FileChangeInput): Promise<FileChangeResult> {
    const { repo } = loaded;
    if (repo.isArchived || repo.isMirror) throw new RepoArchived('repo is not allowed to edit');
    requireCodeWriter(loaded);
    const base = input.branch || repo.defaultBranch;
    const target = input.newBranch || base;
    await checkTargetBranch(this.branches, loaded, actor, base, target);
    const planned = input.files.map((f): Planned => {
      const path = cleanTreePath(f.path);
      if (!path) throw new Invalid(`path contains a malformed path component [path: ${f.path}]`);
      const from = f.fromPath ? cleanTreePath(f.fromPath) : path;
      if (!from) throw new Invalid(`path contains a malformed path component [path: ${f.fromPath}]`);
      const keep = f.operation === 'delete' || (f.operation === 'rename' && !f.content);
      return { op: f.operation, given: f.path, path, from: f.operation === 'delete' ? path : from, sha: f.sha || undefined, keep, data: keep ? undefined : decode(f.content, f.path) };
    });
    const dir = this.branches.dir(loaded);
    const baseTip = await refTarget(dir, `refs/heads/${base}`);
    // An empty repository takes new files: its first commit makes the branch (Gitea's rule).
    if (!baseTip && !(repo.isEmpty && planned.every((f) => f.op === 'create' || f.op === 'upload'))) {
      throw new NotFound(`branch does not exist [name: ${base}]`);
    }
    const newBranch = target !== base;
    if (newBranch && !input.forcePush && (await refTarget(dir, `refs/heads/${target}`))) {
      throw new Invalid(`branch already exists [name: ${target}]`);
    }
    const { author, committer } = commitPeople(actor, this.deps.config, input);
    const message = commitMessage(input, defaultMessage(planned), committer);

    return withKeyLock(`${dir}\0${target}`, async () => {
      for (let attempt = 0; attempt < attempts; attempt++) {
        // A change to the same branch builds on its current tip; a new branch starts from the base.
        // (Read here, inside the lock: a writer that waited for another builds on that one's commit.)
        const parent = newBranch ? baseTip : ((await refTarget(dir, `refs/heads/${base}`)) ?? baseTip);
        const changes = await this.plan(dir, parent, planned);
        const sign = await this.signing.signer('crudActions', { actor, dir, parent });
        const id = await commitIndexChanges(dir, { parent, changes, message, author, committer, sign });
        let events: Promise<DomainEvent[]> | undefined;
        let move: RefChange | undefined;
        const eventsFrom = (before: string) => {
          move = { ref: `refs/heads/${target}`, before, after: id };
          events = this.branches.refEvents(loaded, actor.id, [move], parent ? [parent] : []);
          events.catch(() => undefined); // awaited below when the ref moved; dropped when it did not
        };
        const ref = `refs/heads/${target}`;
        try {
          if (!newBranch) {
            eventsFrom(parent ?? zeroIdLike(id));
            if (parent) await moveRef(dir, ref, id, parent);
            else await createRef(dir, ref, id);
          } else {
            const existing = await refTarget(dir, ref);
            eventsFrom(existing ?? zeroIdLike(id));
            if (existing && input.forcePush) await moveRef(dir, ref, id, existing);
            else await createRef(dir, ref, id);
          }
        } catch (err) {
          if (!(err instanceof GitError)) throw err;
          if (newBranch && !input.forcePush) throw new Invalid(`branch already exists [name: ${target}]`);
          continue; // the branch moved under us: check and build again on its new tip
        }
        const wasEmpty = repo.isEmpty || !parent;
        await this.branches.recordOrUndo(loaded, [move!], async () => {
          if (wasEmpty && target !== repo.defaultBranch) await setHead(dir, target);
          try {
            await this.branches.recordRefEvents(loaded, actor.id, await events!, wasEmpty ? { defaultBranch: target } : {});
          } catch (err) {
            if (wasEmpty && target !== repo.defaultBranch) await setHead(dir, repo.defaultBranch).catch(() => {});
            throw err;
          }
        });
        const commit = await readCommit(dir, id);
        return { ref: target, commit, files: written(planned, commit) };
      }
      throw new Conflict('the branch kept changing while the files were written; try again');
    });
  }

  /** Gitea's checks of each file against `parent`, and the index changes they make. */
  private async plan(dir: string, parent: string | undefined, files: Planned[]): Promise<IndexChange[]> {
    const entries = parent ? await entriesAlong(dir, parent, files.flatMap((f) => [f.path, f.from])) : new Map<string, TreeEntry>();
    const changes: IndexChange[] = [];
    for (const f of files) {
      let mode = '100644';
      if (f.op !== 'create') {
        const old = entries.get(f.from);
        if (!old && f.op !== 'upload') throw new NotFound(`file does not exist [path: ${f.from}]`);
        if (old?.type === 'tree') throw new Invalid(`a directory exists where you’re trying to change a file [path: ${f.from}]`);
        if (f.sha !== undefined && f.sha !== (old?.id ?? '')) throw new Conflict(`sha does not match [given: ${f.sha}, expected: ${old?.id ?? ''}]`);
        if (old?.mode === '100755') mode = old.mode;
        if (f.keep && f.op === 'rename' && old) {
          f.blob = old.id;
          f.data = await readBlob(dir, old.id);
        }
      }
      if (f.op === 'delete') {
        changes.push({ path: f.path, remove: true });
        continue;
      }
      const parts = f.path.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const sub = parts.slice(0, i).join('/');
        const e = entries.get(sub);
        if (!e) break;
        if (i < parts.length) {
          if (e.type !== 'tree') throw new Invalid(`a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
        } else if (e.mode === '120000') {
          throw new Invalid(`a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
        } else if (e.type === 'tree') {
          throw new Invalid(`a directory exists where you’re trying to create a file [path: ${sub}]`);
        } else if (f.from !== f.path || f.op === 'create') {
          throw new Invalid(`repository file already exists [path: ${f.path}]`);
        }
      }
      if (f.from !== f.path && entries.has(f.from)) changes.push({ path: f.from, remove: true });
      f.mode = mode;
      changes.push({ path: f.path, blob: '', mode });
    }
    // Blobs are written once the checks passed (a refused write leaves no object behind), once per request.
    for (const f of files) if (f.data && !f.blob) f.blob = await writeBlob(dir, f.data);
    const blobs = new Map(files.map((f) => [f.path, f.blob!]));
    return changes.map((c) => ('remove' in c ? c : { ...c, blob: blobs.get(c.path)! }));
  }

}
