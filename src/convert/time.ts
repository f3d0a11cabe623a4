/** RFC 3339 at second precision with `Z`, as Gitea prints times. */
export function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Gitea prints an unset time as the Unix epoch. */
export const never = '1970-01-01T00:00:00Z';

export function isoOrNull(d: Date | null | undefined): string | null {
  return d ? iso(d) : null;
}
