/** RFC 3339 at second precision with `Z`, as Gitea prints times. */
export function iso(d: Date): string {
  const s = d.toISOString();
  // "2026-11-26T09:12:00.372Z": the milliseconds cut (a slice; every list row formats several times).
  // Years beyond 9999 are printed longer, and keep the general form.
  return s.length === 24 ? `${s.slice(0, 19)}Z` : s.replace(/\.\d{3}Z$/, 'Z');
}

/** Gitea prints an unset time as the Unix epoch. */
export const never = '1970-01-01T00:00:00Z';

export function isoOrNull(d: Date | null | undefined): string | null {
  return d ? iso(d) : null;
}

/** Seconds as Go prints a time.Duration: `8h0m0s`, `10m0s`, `45s`, `0s`. */
export function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  return m > 0 ? `${m}m${s}s` : `${s}s`;
}
