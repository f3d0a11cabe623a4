// Who made a commit and when, as git's environment and objects carry it (shared by git/commit.ts, which
// runs git, and git/commitObject.ts, which writes commit objects itself).

export interface Signature {
  name: string;
  email: string;
  date?: Date;
}

/** Seconds since 1970 and the zone, as git writes them in commit and tag objects. */
export const rawTime = (d?: Date) => `${Math.floor((d ?? new Date()).getTime() / 1000)} +0000`;

export function signatureEnv(author: Signature, committer: Signature): Record<string, string> {
  // Without `@`, git refuses a count of seconds under nine digits (before 1973) or past 2099.
  const fmt = (d?: Date) => `@${rawTime(d)}`;
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: fmt(author.date),
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: fmt(committer.date),
  };
}
