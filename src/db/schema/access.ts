// Access modes and repository units, Gitea's vocabulary for who may do what.
export const accessModes = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessMode = (typeof accessModes)[number];

export const units = [
  'repo.code',
  'repo.issues',
  'repo.pulls',
  'repo.releases',
  'repo.wiki',
  'repo.projects',
  'repo.packages',
  'repo.actions',
  'repo.ext_issues',
  'repo.ext_wiki',
] as const;
export type Unit = (typeof units)[number];

const ranks: Record<AccessMode, number> = { none: 0, read: 1, write: 2, admin: 3, owner: 4 };
export const rank = (m: AccessMode): number => ranks[m] ?? -1;
export const maxMode = (a: AccessMode, b: AccessMode): AccessMode => (rank(a) >= rank(b) ? a : b);
export const minMode = (a: AccessMode, b: AccessMode): AccessMode => (rank(a) <= rank(b) ? a : b);
export const atLeast = (m: AccessMode, needed: AccessMode): boolean => rank(m) >= rank(needed);
