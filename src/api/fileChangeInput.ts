// The options every contents write shares (Gitea's FileOptions), from the request body to the service's input.
import type { components } from '../../generated/openapi.js';
import type { FileChangeInput } from '../services/git/fileChanges.js';

type FileOptions = Pick<components['schemas']['CreateFileOptions'], 'branch' | 'new_branch' | 'force_push' | 'message' | 'author' | 'committer' | 'dates' | 'signoff'>;

export function fileOptions(b: FileOptions): Omit<FileChangeInput, 'files'> {
  return {
    branch: b.branch ?? undefined,
    newBranch: b.new_branch ?? undefined,
    forcePush: b.force_push ?? undefined,
    message: b.message ?? undefined,
    author: b.author ?? undefined,
    committer: b.committer ?? undefined,
    dates: b.dates ? { author: b.dates.author ?? undefined, committer: b.dates.committer ?? undefined } : undefined,
    signoff: b.signoff ?? undefined,
  };
}
