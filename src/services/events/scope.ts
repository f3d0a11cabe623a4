// The common fields of an event that happened in a repository.
import type { RepoRow } from '../../db/schema/index.js';

export function inRepo(repo: RepoRow, actorId: number): { actorId: number; repoId: number; ownerId: number; isPrivate: boolean } {
  return { actorId, repoId: repo.id, ownerId: repo.ownerId, isPrivate: repo.isPrivate };
}

/** Gitea's feed content for an issue or pull request: `<index>|<text>`. */
export const issueContent = (index: number, text: string) => `${index}|${text}`;
