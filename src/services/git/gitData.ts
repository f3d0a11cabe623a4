// Reading a repository's history and objects: the commit list, one commit, a comparison of two refs,
// refs, trees, blobs and archives. Everything comes from git; nothing is written.
import type { Readable } from 'node:stream';
import { archiveStream, type ArchiveFormat } from '../../git/archive.js';
import { changedFiles, commitDiffText, commitPatchText, commitLineStats, commitsBetween, type ChangedPath } from '../../git/compare.js';
import { git } from '../../git/core.js';
import { describeCommits } from '../../git/describe.js';
import { allRefs, treeEntries, treeOf, type RefObject } from '../../git/gitData.js';
import { historyPage, type HistoryFilter } from '../../git/history.js';
import { readNote } from '../../git/notes.js';
import { lastCommitFor, objectType, readBlob, type TreeEntry } from '../../git/objects.js';
import { refTarget, resolveCommit } from '../../git/refs.js';
import { canRead } from '../../permissions/repo.js';
import { BadRequest, Conflict, Invalid, NotFound } from '../errors.js';
import { isValidRefName } from '../names.js';
import type { PullCommit } from '../pulls/pullChanges.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { BranchService } from './branches.js';

const fullId = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
/** Gitea's tree page size (DEFAULT_GIT_TREES_PER_PAGE), also the largest. */
export const treePageSize = 1000;
/** How many commits a comparison lists (Gitea's compare page). */
const compareCommitLimit = 50;

export class GitDataService {
  constructor(private readonly branches: BranchService) {}

  private dir(loaded: LoadedRepo): string {
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
    return this.branches.dir(loaded);
  }

  private async rows(dir: string, ids: string[], opts: { files: boolean; stat: boolean }): Promise<PullCommit[]> {
    const [described, stats] = await Promise.all([describeCommits(dir, ids, { files: opts.files }), opts.stat ? commitLineStats(dir, ids) : undefined]);
    return ids.map((id) => ({ commit: described.get(id)!, ...(stats?.get(id) ?? { additions: 0, deletions: 0 }) }));
  }

  async commits(
    loaded: LoadedRepo, q: { sha?: string; path?: string; since?: Date; until?: Date; not?: string },
    page: { offset: number; limit: number }, opts: { files: boolean; stat: boolean },
  ): Promise<{ rows: PullCommit[]; total: number }> {
    const dir = this.dir(loaded);
    if (loaded.repo.isEmpty) throw new Conflict('Git Repository is empty.');
    const tip = q.sha ? await resolveCommit(dir, q.sha) : await refTarget(dir, `refs/heads/${loaded.repo.defaultBranch}`);
    if (!tip) throw new NotFound();
    const filter: HistoryFilter = { since: q.since, until: q.until };
    if (q.not) {
      filter.not = await resolveCommit(dir, q.not);
      if (!filter.not) throw new NotFound();
    }
    if (q.path) filter.path = q.path.replace(/^\/+|\/+$/g, '') || undefined;
    // No tree holds a `.` or `..` segment, so no commit touched such a path (and git refuses a pathspec
    // outside the repository, which answered 500).
    if (filter.path?.split('/').some((seg) => seg === '.' || seg === '..')) throw new NotFound();
    const { ids, total } = await historyPage(dir, tip, filter, page);
    // Gitea: a path no commit touched is not found.
    if (filter.path && total === 0) throw new NotFound();
    return { rows: await this.rows(dir, ids, opts), total };
  }

  async commit(loaded: LoadedRepo, sha: string, opts: { files: boolean; stat: boolean }): Promise<PullCommit> {
    const dir = this.dir(loaded);
    if (!fullId.test(sha) && !/^[0-9a-f]{4,64}$/.test(sha) && !isValidRefName(sha)) throw new Invalid(`no valid ref or sha: ${sha}`);
    const id = loaded.repo.isEmpty ? undefined : await resolveCommit(dir, sha);
    if (!id) throw new NotFound();
    return (await this.rows(dir, [id], opts))[0]!;
  }

  /**
   * The note `refs/notes/commits` holds for the commit `sha` names: its text and, as Gitea answers, the
   * commit of the notes ref that last changed it. Not found when there is no such commit or no note.
   */
  async note(loaded: LoadedRepo, sha: string, opts: { files: boolean; stat: boolean }): Promise<{ message: string; commit: PullCommit }> {
    const dir = this.dir(loaded);
    if (!fullId.test(sha) && !/^[0-9a-f]{4,64}$/.test(sha) && !isValidRefName(sha)) throw new Invalid(`no valid ref or sha: ${sha}`);
    const id = loaded.repo.isEmpty ? undefined : await resolveCommit(dir, sha);
    const note = id ? await readNote(dir, id) : undefined;
    if (!note) throw new NotFound();
    const changedBy = (await lastCommitFor(dir, note.notesCommit, note.path)) ?? note.notesCommit;
    return { message: note.message.toString('utf8'), commit: (await this.rows(dir, [changedBy], opts))[0]! };
  }

  /** One commit with its diff against its first parent (the commit page). */
  async commitWithDiff(loaded: LoadedRepo, sha: string): Promise<{ row: PullCommit; diff: string }> {
    const row = await this.commit(loaded, sha, { files: false, stat: true });
    return { row, diff: await commitDiffText(this.dir(loaded), row.commit.id) };
  }

  /** `GET …/git/commits/{sha}.diff|.patch`: the commit against its first parent, as `git diff` or a format-patch mail. */
  async commitDiffOrPatch(loaded: LoadedRepo, sha: string, kind: 'diff' | 'patch'): Promise<string> {
    if (!/^[0-9a-f]{4,64}$/.test(sha)) throw new NotFound();
    const row = await this.commit(loaded, sha, { files: false, stat: false });
    const dir = this.dir(loaded);
    return kind === 'diff' ? commitDiffText(dir, row.commit.id) : commitPatchText(dir, row.commit.id);
  }

  async compare(loaded: LoadedRepo, basehead: string): Promise<{ total: number; rows: PullCommit[]; files: ChangedPath[]; head: string }> {
    const dir = this.dir(loaded);
    const sep = basehead.includes('...') ? '...' : basehead.includes('..') ? '..' : undefined;
    if (!sep) throw new Invalid(`[basehead]: must be base...head: ${basehead}`);
    const at = basehead.indexOf(sep);
    const [baseName, headName] = [basehead.slice(0, at), basehead.slice(at + sep.length)];
    if (!baseName || !headName || loaded.repo.isEmpty) throw new NotFound();
    const [base, head] = await Promise.all([resolveCommit(dir, baseName), resolveCommit(dir, headName)]);
    if (!base || !head) throw new NotFound();
    const mb = await git(dir, ['merge-base', base, head], { okCodes: [1] });
    const from = mb.exitCode === 0 ? mb.stdout.trim() : base;
    const [ids, files] = await Promise.all([commitsBetween(dir, base, head), changedFiles(dir, from, head)]);
    return { total: ids.length, rows: await this.rows(dir, ids.slice(0, compareCommitLimit), { files: true, stat: true }), files, head };
  }

  /** The refs whose full name starts with `refs/<prefix>` (every ref for none); not found when none does. */
  async refs(loaded: LoadedRepo, prefix?: string): Promise<RefObject[]> {
    const dir = this.dir(loaded);
    const wanted = `refs/${prefix ?? ''}`;
    const refs = (await allRefs(dir)).filter((r) => r.ref.startsWith(wanted));
    if (refs.length === 0) throw new NotFound();
    return refs;
  }

  async tree(loaded: LoadedRepo, sha: string, opts: { recursive: boolean; page: number; perPage: number }): Promise<{ sha: string; entries: TreeEntry[]; total: number; truncated: boolean }> {
    const dir = this.dir(loaded);
    const tree = loaded.repo.isEmpty ? undefined : await treeOf(dir, sha);
    if (!tree) throw new BadRequest(`sha not found [sha: ${sha}]`);
    const all = await treeEntries(dir, tree, opts.recursive);
    const start = (opts.page - 1) * opts.perPage;
    const entries = all.slice(start, start + opts.perPage);
    return { sha: tree, entries, total: all.length, truncated: start + entries.length < all.length };
  }

  async blob(loaded: LoadedRepo, sha: string): Promise<{ sha: string; data: Buffer }> {
    const dir = this.dir(loaded);
    if (!fullId.test(sha) || (await objectType(dir, sha)) !== 'blob') throw new BadRequest(`blob not found [sha: ${sha}]`);
    return { sha, data: await readBlob(dir, sha) };
  }

  /** `<ref>.zip` or `<ref>.tar.gz`, streamed; the download name is Gitea's `<repo>-<ref>.<ext>`. */
  async archive(loaded: LoadedRepo, archive: string): Promise<{ name: string; stream: Readable }> {
    const dir = this.dir(loaded);
    const format: ArchiveFormat | undefined = archive.endsWith('.zip') ? 'zip' : archive.endsWith('.tar.gz') ? 'tar.gz' : undefined;
    if (!format) throw new BadRequest(`unknown format: ${archive}`);
    const ref = archive.slice(0, archive.length - format.length - 1);
    const commit = ref && !loaded.repo.isEmpty ? await resolveCommit(dir, ref) : undefined;
    if (!commit) throw new NotFound();
    const name = `${loaded.repo.name}-${ref.replaceAll('/', '-')}.${format}`;
    return { name, stream: archiveStream(dir, commit, format, `${loaded.repo.name.toLowerCase()}/`) };
  }
}
