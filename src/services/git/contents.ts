// Files and directories of a commit: the contents API and raw downloads.
import { lastCommitFor, lsTree, readBlob, readCommit, submoduleUrls, type CommitData, type TreeEntry } from '../../git/objects.js';
import { allRefNames, resolveCommit } from '../../git/refs.js';
import { canRead } from '../../permissions/repo.js';
import type { BranchService } from './branches.js';
import { NotFound } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

export interface ContentEntry {
  entry: TreeEntry;
  /** Whole file bytes (files and symlinks only, in single-file answers). */
  data?: Buffer;
  lastCommit?: CommitData;
  /** A submodule's repository URL from `.gitmodules`. */
  submoduleUrl?: string;
}

export interface ContentsResult {
  ref: string;
  commit: string;
  /** A directory's entries, or undefined for a single file. */
  list?: ContentEntry[];
  file?: ContentEntry;
}

/** Repository-relative path without leading/trailing slashes; `..` and empty segments never match anything. */
function cleanPath(path: string): string | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.' || p.includes('\0'))) return undefined;
  return parts.join('/');
}

export class ContentService {
  constructor(private readonly branches: BranchService) {}

  private async locate(loaded: LoadedRepo, rawPath: string, ref?: string) {
    if (!canRead(loaded.perm, 'repo.code') || loaded.repo.isEmpty) throw new NotFound();
    const path = cleanPath(rawPath);
    if (path === undefined) throw new NotFound();
    const dir = this.branches.dir(loaded);
    const refName = ref || loaded.repo.defaultBranch;
    const commit = await resolveCommit(dir, refName);
    if (!commit) throw new NotFound();
    return { dir, path, refName, commit };
  }

  async get(loaded: LoadedRepo, rawPath: string, ref?: string): Promise<ContentsResult> {
    const { dir, path, refName, commit } = await this.locate(loaded, rawPath, ref);
    const self = path ? (await lsTree(dir, commit, path, { self: true })).find((e) => e.path === path) : undefined;
    if (path && !self) throw new NotFound();
    if (!self || self.type === 'tree') {
      const entries = await lsTree(dir, commit, path);
      const urls = entries.some((e) => e.type === 'commit') ? await submoduleUrls(dir, commit) : new Map<string, string>();
      return { ref: refName, commit, list: entries.map((entry) => ({ entry, submoduleUrl: urls.get(entry.path) })) };
    }
    const data = self.type === 'blob' ? await readBlob(dir, self.id) : undefined;
    const submoduleUrl = self.type === 'commit' ? (await submoduleUrls(dir, commit)).get(path) : undefined;
    const last = await lastCommitFor(dir, commit, path);
    return { ref: refName, commit, file: { entry: self, data, submoduleUrl, lastCommit: last ? await readCommit(dir, last) : undefined } };
  }

  /**
   * Gitea's legacy `{ref}/{filepath}` form, read when no `ref` is given: the shortest leading run of
   * segments that names a branch, else a tag, else a full commit id; undefined when none does.
   */
  private legacyRef(loaded: LoadedRepo, rawPath: string): Promise<{ ref: string; path: string } | undefined> {
    return this.splitRef(loaded, 'any', rawPath);
  }

  /**
   * A web path's `{ref}/{filepath}` split as Gitea's pages split it: for a branch or a tag the shortest
   * leading run of segments that names one (`any`: a branch, else a tag, else a commit), for a commit a
   * full or abbreviated id as the first segment; undefined when nothing matches (or the caller may not read the code).
   */
  async splitRef(loaded: LoadedRepo, kind: 'branch' | 'tag' | 'commit' | 'any', rawPath: string): Promise<{ ref: string; path: string } | undefined> {
    if (!canRead(loaded.perm, 'repo.code') || loaded.repo.isEmpty) return undefined; // locate answers 404
    const parts = rawPath.split('/');
    if (kind !== 'commit') {
      const refs = new Set(await allRefNames(this.branches.dir(loaded)));
      const kinds = kind === 'branch' ? ['heads'] : kind === 'tag' ? ['tags'] : ['heads', 'tags'];
      for (const k of kinds) {
        for (let i = 1; i <= parts.length; i++) {
          const ref = parts.slice(0, i).join('/');
          if (refs.has(`refs/${k}/${ref}`)) return { ref: kind === 'tag' ? `refs/tags/${ref}` : ref, path: parts.slice(i).join('/') };
        }
      }
      if (kind !== 'any') return undefined;
    }
    const [head = '', ...rest] = parts;
    const pattern = kind === 'commit' ? /^[0-9a-f]{7,64}$/ : /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
    return pattern.test(head) ? { ref: head, path: rest.join('/') } : undefined;
  }

  /** A file's bytes; directories and submodules are 404. */
  async raw(loaded: LoadedRepo, rawPath: string, ref?: string): Promise<{ name: string; data: Buffer }> {
    const legacy = ref ? undefined : await this.legacyRef(loaded, rawPath);
    const { dir, path, commit } = await this.locate(loaded, legacy?.path ?? rawPath, legacy?.ref ?? ref);
    if (!path) throw new NotFound();
    const self = (await lsTree(dir, commit, path, { self: true })).find((e) => e.path === path);
    if (!self || self.type !== 'blob') throw new NotFound();
    return { name: path.split('/').pop()!, data: await readBlob(dir, self.id) };
  }
}
