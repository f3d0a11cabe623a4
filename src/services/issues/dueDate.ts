/**
 * Gitea keeps only the date of a deadline: 23:59:59 of that day, in the time zone the client wrote.
 * "2026-03-01T08:00:00+02:00" → 2026-03-01T23:59:59+02:00.
 */
export function endOfDay(value: string): Date {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[Tt ][^Zz+-]*)?([Zz]|[+-]\d{2}:?\d{2})?$/.exec(value.trim());
  if (!m) return new Date(value);
  const zone = !m[2] || m[2].toUpperCase() === 'Z' ? 'Z' : m[2].includes(':') ? m[2] : `${m[2].slice(0, 3)}:${m[2].slice(3)}`;
  return new Date(`${m[1]}T23:59:59${zone}`);
}
