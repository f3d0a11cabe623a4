import type { components } from '../../generated/openapi.js';
import type { RefObject } from '../git/gitData.js';
import type { TreeEntry } from '../git/objects.js';
import { escapePath } from './repo.js';

type Schemas = components['schemas'];

export function toReference(r: RefObject, repoApi: string): Schemas['Reference'] {
  return {
    ref: r.ref,
    url: `${repoApi}/git/${escapePath(r.ref)}`,
    object: { type: r.type as Schemas['GitObject']['type'], sha: r.sha, url: `${repoApi}/git/${r.type}s/${r.sha}` },
  };
}

/** Gitea answers one ref as an object, several as a list. */
export function toReferences(refs: RefObject[], repoApi: string): Schemas['Reference'] | Schemas['Reference'][] {
  const out = refs.map((r) => toReference(r, repoApi));
  return out.length === 1 ? out[0]! : out;
}

export function toGitBlob(b: { sha: string; data: Buffer }, repoApi: string): Schemas['GitBlobResponse'] {
  return { content: b.data.toString('base64'), encoding: 'base64', url: `${repoApi}/git/blobs/${b.sha}`, sha: b.sha, size: b.data.length };
}

/** One page of a tree (`page` is the page answered). */
export function toGitTree(
  t: { sha: string; entries: TreeEntry[]; total: number; truncated: boolean }, page: number, repoApi: string,
): Schemas['GitTreeResponse'] {
  return { sha: t.sha, url: `${repoApi}/git/trees/${t.sha}`, tree: t.entries.map((e) => toGitEntry(e, repoApi)), truncated: t.truncated, page, total_count: t.total };
}

export function toGitEntry(e: TreeEntry, repoApi: string): Schemas['GitEntry'] {
  // A submodule's commit lives in another repository: GitHub and Gitea leave its url empty.
  const url = e.type === 'commit' ? '' : `${repoApi}/git/${e.type === 'tree' ? 'trees' : 'blobs'}/${e.id}`;
  return { path: e.path, mode: e.mode, type: e.type, size: e.size, sha: e.id, url };
}

/** A git note: its text and the (already converted) commit that last changed it. */
export function toNote(message: string, commit: Schemas['Commit']): Schemas['Note'] {
  return { message, commit };
}
