import type { components } from '../../generated/openapi.js';
import type { FileChangeResult } from '../services/git/fileChanges.js';
import { toFileCommit, unverified } from './commit.js';
import { toContents } from './contents.js';

type Schemas = components['schemas'];

/** A multi-file change as Gitea answers it: the files at the new commit (null where deleted), the commit. */
export function toFilesResponse(r: FileChangeResult, urls: { html: string; api: string }): Schemas['FilesResponse'] {
  return {
    files: r.files.map((f) => (f ? toContents(f, urls, r.ref) : null)),
    commit: toFileCommit(r.commit, urls.html, urls.api),
    verification: unverified(),
  };
}

/** One file's change (create, update, delete): the first file of the change. */
export function toFileResponse(r: FileChangeResult, urls: { html: string; api: string }): Schemas['FileResponse'] {
  const [file] = r.files;
  return { content: file ? toContents(file, urls, r.ref) : null, commit: toFileCommit(r.commit, urls.html, urls.api), verification: unverified() };
}
